package dev.sluice.refstats;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The series of one Prometheus name: its kind and help (from the first event that made it, as in
 * statsd_exporter), and a cell per label set. Label sets may differ within a family, as the
 * reference's default mappings make them (one-level keys have no {@code key2}). Thread-safe.
 */
final class StatFamily {
  enum Kind {
    COUNTER,
    HISTOGRAM,
    SUMMARY;

    String typeName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    static Kind of(StatType type, ObserverOptions observer) {
      if (type != StatType.OBSERVER) {
        return COUNTER;
      }
      return observer.kind() == ObserverOptions.Kind.HISTOGRAM ? HISTOGRAM : SUMMARY;
    }
  }

  private final String name;
  private final Kind kind;
  private final String help;
  private final ObserverOptions options;
  private final ConcurrentMap<SortedMap<String, String>, StatCell> cells =
      new ConcurrentHashMap<>();

  StatFamily(String name, Kind kind, String help, ObserverOptions options) {
    this.name = name;
    this.kind = kind;
    this.help = help;
    this.options = options;
  }

  Kind kind() {
    return kind;
  }

  /** The cell of {@code labels}, created on first use. */
  StatCell cell(SortedMap<String, String> labels) {
    StatCell cell = cells.get(labels);
    return cell != null ? cell : cells.computeIfAbsent(labels, l -> StatCell.of(kind, options));
  }

  /** Its lines, series in label order; nothing when no series has a sample yet. */
  void write(StringBuilder out) {
    StringBuilder samples = new StringBuilder();
    Map<SortedMap<String, String>, StatCell> ordered =
        new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
    ordered.putAll(cells);
    ordered.forEach((labels, cell) -> cell.write(samples, name, labels));
    if (samples.length() > 0) {
      TextFormat.header(out, name, help, kind.typeName());
      out.append(samples);
    }
  }
}
