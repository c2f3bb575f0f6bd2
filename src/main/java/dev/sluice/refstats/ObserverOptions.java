package dev.sluice.refstats;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a timer becomes: a histogram with these buckets, or a summary with these quantiles over a
 * sliding window of 10 minutes in 5 age buckets (statsd_exporter's window). statsd_exporter's
 * default is a summary with quantiles 0.5, 0.9 and 0.99; a histogram's default buckets are
 * Prometheus' default ones.
 *
 * @param buckets upper bounds, ascending; used by a histogram
 * @param quantiles used by a summary
 */
record ObserverOptions(Kind kind, List<Double> buckets, List<Quantile> quantiles) {
  enum Kind {
    HISTOGRAM,
    SUMMARY
  }

  /**
   * @param error the rank error allowed, as statsd_exporter's {@code error}
   */
  record Quantile(double quantile, double error) {
    Quantile {
      if (!(quantile >= 0 && quantile <= 1) || !(error >= 0 && error <= 1)) {
        throw new IllegalArgumentException(
            "quantile and error must be in [0, 1]: " + quantile + ", " + error);
      }
    }
  }

  /** client_golang's DefBuckets, which statsd_exporter uses. */
  static final List<Double> DEFAULT_BUCKETS =
      List.of(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0);

  static final List<Quantile> DEFAULT_QUANTILES =
      List.of(new Quantile(0.5, 0.05), new Quantile(0.9, 0.01), new Quantile(0.99, 0.001));

  /** The summary's sliding window, client_golang's default that statsd_exporter keeps. */
  static final Duration MAX_AGE = Duration.ofMinutes(10);

  static final int AGE_BUCKETS = 5;

  /** statsd_exporter's default for a timer no mapping says otherwise about. */
  static final ObserverOptions DEFAULT =
      new ObserverOptions(Kind.SUMMARY, DEFAULT_BUCKETS, DEFAULT_QUANTILES);

  ObserverOptions {
    Objects.requireNonNull(kind, "kind");
    buckets = List.copyOf(buckets);
    quantiles = List.copyOf(quantiles);
    for (int i = 1; i < buckets.size(); i++) {
      if (!(buckets.get(i) > buckets.get(i - 1))) {
        throw new IllegalArgumentException("buckets must be in increasing order: " + buckets);
      }
    }
  }

  ObserverOptions withKind(Kind newKind) {
    return new ObserverOptions(newKind, buckets, quantiles);
  }
}
