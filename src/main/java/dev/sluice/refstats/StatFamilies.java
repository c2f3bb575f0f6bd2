package dev.sluice.refstats;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Prometheus families the mapped stats make, and their text. As in statsd_exporter, the first
 * event under a name fixes its kind; a later event of another kind under that name (or one that
 * would clash with a histogram's or summary's {@code _bucket}, {@code _sum} or {@code _count}) is
 * dropped, and logged once per name. Thread-safe.
 */
final class StatFamilies {
  private static final Logger log = LoggerFactory.getLogger(StatFamilies.class);
  private static final String[] PARTS = {"_bucket", "_sum", "_count"};

  private final ConcurrentMap<String, StatFamily> families = new ConcurrentHashMap<>();
  private final Set<String> conflictsLogged = ConcurrentHashMap.newKeySet();

  /**
   * The cell {@code mapped} names for events of {@code type}; empty when the mapper dropped it or
   * the name is taken by another kind.
   */
  Optional<StatCell> cell(Mapped mapped, StatType type) {
    if (!(mapped instanceof Mapped.Series series)) {
      return Optional.empty();
    }
    StatFamily.Kind kind = StatFamily.Kind.of(type, series.observer());
    StatFamily family =
        families.computeIfAbsent(
            series.name(),
            name ->
                clashes(name, kind)
                    ? null
                    : new StatFamily(name, kind, series.help(), series.observer()));
    if (family == null || family.kind() != kind) {
      if (conflictsLogged.add(series.name())) {
        log.warn(
            "reference metrics: a {} named {} clashes with another metric of that name; its"
                + " events are dropped, as statsd_exporter drops them",
            kind.typeName(),
            series.name());
      }
      return Optional.empty();
    }
    return Optional.of(family.cell(series.labels()));
  }

  /** Whether {@code name} would collide with a histogram's or summary's sample names. */
  private boolean clashes(String name, StatFamily.Kind kind) {
    for (String part : PARTS) {
      if (name.endsWith(part)) {
        StatFamily stem = families.get(name.substring(0, name.length() - part.length()));
        if (stem != null && stem.kind() != StatFamily.Kind.COUNTER) {
          return true;
        }
      }
      if (kind != StatFamily.Kind.COUNTER && families.containsKey(name + part)) {
        return true;
      }
    }
    return false;
  }

  /** Every family with a sample, by name, in the text format. */
  void write(StringBuilder out) {
    Map<String, StatFamily> ordered = new TreeMap<>(families);
    ordered.values().forEach(family -> family.write(out));
  }
}
