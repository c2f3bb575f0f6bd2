package dev.sluice.bench;

/**
 * When the open-loop generator sends each request: request {@code i} is due at {@code start + i /
 * rate}, computed from {@code i} rather than by adding intervals, so rounding never drifts. A late
 * sender does not move the schedule: latency is measured from the due time, so a stalled server is
 * charged for the requests it delayed (no coordinated omission).
 *
 * @param startNanos {@link System#nanoTime()} of request 0
 * @param ratePerSecond requests per second, > 0
 */
public record OpenLoopSchedule(long startNanos, double ratePerSecond) {
  private static final double NANOS_PER_SECOND = 1e9;

  public OpenLoopSchedule {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("rate must be > 0 per second: " + ratePerSecond);
    }
  }

  /** The due time of request {@code index} (0-based), in {@link System#nanoTime()} terms. */
  public long dueNanos(long index) {
    return startNanos + (long) (index * NANOS_PER_SECOND / ratePerSecond);
  }

  /**
   * How many requests are due at or before {@code nowNanos}: the next index to send once caught up.
   */
  public long dueBy(long nowNanos) {
    long elapsed = nowNanos - startNanos;
    if (elapsed < 0) {
      return 0;
    }
    long count = (long) Math.floor(elapsed * ratePerSecond / NANOS_PER_SECOND) + 1;
    // Floating point may land one off at an exact boundary; the due times are the truth.
    while (count > 0 && dueNanos(count - 1) - nowNanos > 0) {
      count--;
    }
    while (dueNanos(count) - nowNanos <= 0) {
      count++;
    }
    return count;
  }

  /** How many requests fall in {@code [fromNanos, toNanos)}. */
  public long countBetween(long fromNanos, long toNanos) {
    return Math.max(0, dueBy(toNanos - 1) - dueBy(fromNanos - 1));
  }
}
