package dev.sluice.refstats;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/** What the mapper made of one statsd name: dropped, or a Prometheus series. */
sealed interface Mapped permits Mapped.Drop, Mapped.Series {
  /** The one dropped result. */
  Mapped DROP = new Drop();

  /** {@code action: drop}, or a name that came out empty (statsd_exporter drops those too). */
  record Drop() implements Mapped {}

  /**
   * @param name the Prometheus name, already escaped
   * @param labels sorted by name
   * @param observer what a timer becomes under this name
   * @param scale multiplies every value (1 when the mapping sets none)
   */
  record Series(
      String name,
      SortedMap<String, String> labels,
      ObserverOptions observer,
      double scale,
      String help)
      implements Mapped {
    public Series {
      Objects.requireNonNull(name, "name");
      labels = Collections.unmodifiableSortedMap(new TreeMap<>(labels));
      Objects.requireNonNull(observer, "observer");
      Objects.requireNonNull(help, "help");
    }

    static Series of(String name, Map<String, String> labels, ObserverOptions observer) {
      return new Series(name, new TreeMap<>(labels), observer, 1, StatsdMapping.DEFAULT_HELP);
    }
  }
}
