package dev.sluice.bench;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Latency percentiles in nanoseconds. HdrHistogram reports each percentile as the highest value
 * equivalent to it at the histogram's precision (3 significant digits here), so a reported p99 is
 * never below the true one.
 *
 * @param count recorded latencies
 */
public record LatencySummary(
    long count, long p50Nanos, long p90Nanos, long p99Nanos, long p999Nanos, long maxNanos) {
  /** The highest latency a histogram holds; longer ones are recorded as this. */
  public static final long HIGHEST_NANOS = 3_600_000_000_000L;

  /** Significant digits kept by every latency histogram. */
  public static final int SIGNIFICANT_DIGITS = 3;

  public static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0, 0, 0);

  /** A histogram that {@link #from} can summarise: 1 ns to an hour, 3 significant digits. */
  public static Histogram newHistogram() {
    return new Histogram(HIGHEST_NANOS, SIGNIFICANT_DIGITS);
  }

  /** Values above {@link #HIGHEST_NANOS} would throw in HdrHistogram; they are capped instead. */
  public static long capped(long nanos) {
    return Math.max(0, Math.min(nanos, HIGHEST_NANOS));
  }

  public static LatencySummary from(Histogram histogram) {
    if (histogram.getTotalCount() == 0) {
      return EMPTY;
    }
    return new LatencySummary(
        histogram.getTotalCount(),
        histogram.getValueAtPercentile(50),
        histogram.getValueAtPercentile(90),
        histogram.getValueAtPercentile(99),
        histogram.getValueAtPercentile(99.9),
        histogram.getMaxValue());
  }

  /** {@code p50 0.412 ms p90 ...} for people. */
  public String toText() {
    return String.format(
        Locale.ROOT,
        "p50 %s ms  p90 %s ms  p99 %s ms  p99.9 %s ms  max %s ms",
        millis(p50Nanos),
        millis(p90Nanos),
        millis(p99Nanos),
        millis(p999Nanos),
        millis(maxNanos));
  }

  /** {@code "p50_us":412.3,...} without braces, for a flat JSON object. */
  String toJsonFields() {
    return String.format(
        Locale.ROOT,
        "\"p50_us\":%s,\"p90_us\":%s,\"p99_us\":%s,\"p999_us\":%s,\"max_us\":%s",
        micros(p50Nanos),
        micros(p90Nanos),
        micros(p99Nanos),
        micros(p999Nanos),
        micros(maxNanos));
  }

  static String millis(long nanos) {
    return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
  }

  static String micros(long nanos) {
    return String.format(Locale.ROOT, "%.1f", nanos / 1e3);
  }
}
