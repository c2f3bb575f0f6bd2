package dev.sluice.bench;

/**
 * When the open-loop generator sends each request. The rate ramps up linearly from 0 to {@code
 * ratePerSecond} over {@code rampNanos} (the warmup), then stays there: request {@code i} after the
 * ramp is due at {@code start + ramp + (i - rampRequests) / rate}. The ramp lets a cold client and
 * server compile their hot paths without burying the measured window under a backlog built while
 * they were slow. Due times are computed from the index, never by adding intervals, so rounding
 * never drifts.
 *
 * <p>A late sender does not move the schedule: latency is measured from the due time, so a stalled
 * server is charged for the requests it delayed (no coordinated omission).
 *
 * @param startNanos {@link System#nanoTime()} of request 0
 * @param ratePerSecond requests per second after the ramp, > 0
 * @param rampNanos length of the ramp, >= 0; 0 starts at full rate
 */
public record OpenLoopSchedule(long startNanos, double ratePerSecond, long rampNanos) {
  private static final double NANOS_PER_SECOND = 1e9;

  public OpenLoopSchedule {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("rate must be > 0 per second: " + ratePerSecond);
    }
    if (rampNanos < 0) {
      throw new IllegalArgumentException("ramp must be >= 0 ns: " + rampNanos);
    }
  }

  /** At full rate from the start. */
  public OpenLoopSchedule(long startNanos, double ratePerSecond) {
    this(startNanos, ratePerSecond, 0);
  }

  /** Requests due during the ramp: the area under the rising rate, {@code rate * ramp / 2}. */
  public double rampRequests() {
    return ratePerSecond * rampNanos / NANOS_PER_SECOND / 2;
  }

  /** The due time of request {@code index} (0-based), in {@link System#nanoTime()} terms. */
  public long dueNanos(long index) {
    double ramped = rampRequests();
    if (index < ramped) {
      // Requests so far at t: rate * t^2 / (2 * ramp), solved for t.
      return startNanos
          + (long) Math.sqrt(2.0 * rampNanos * index * NANOS_PER_SECOND / ratePerSecond);
    }
    return startNanos + rampNanos + (long) ((index - ramped) * NANOS_PER_SECOND / ratePerSecond);
  }

  /**
   * How many requests are due at or before {@code nowNanos}: the next index to send once caught up.
   */
  public long dueBy(long nowNanos) {
    if (nowNanos - startNanos < 0) {
      return 0;
    }
    // Due times rise with the index, so search for the first one after now.
    long low = 0;
    long high =
        (long) (rampRequests() + (nowNanos - startNanos) * ratePerSecond / NANOS_PER_SECOND) + 2;
    while (low < high) {
      long middle = (low + high) >>> 1;
      if (dueNanos(middle) - nowNanos <= 0) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }

  /** How many requests fall in {@code [fromNanos, toNanos)}. */
  public long countBetween(long fromNanos, long toNanos) {
    return Math.max(0, dueBy(toNanos - 1) - dueBy(fromNanos - 1));
  }
}
