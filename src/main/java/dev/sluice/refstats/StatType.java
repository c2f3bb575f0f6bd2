package dev.sluice.refstats;

import java.util.Locale;

/** The kind of a statsd event, as a mapping's {@code match_metric_type} names it. */
enum StatType {
  COUNTER,
  GAUGE,
  /** A timer or histogram event ({@code observer}; {@code timer} is its older name). */
  OBSERVER;

  /**
   * @throws IllegalArgumentException for a name statsd_exporter does not know
   */
  static StatType named(String name) {
    return switch (name) {
      case "counter" -> COUNTER;
      case "gauge" -> GAUGE;
      case "observer", "timer" -> OBSERVER;
      default ->
          throw new IllegalArgumentException(
              "invalid match_metric_type '" + name + "': expected counter, gauge or observer");
    };
  }

  String configName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
