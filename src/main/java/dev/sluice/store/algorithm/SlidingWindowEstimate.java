package dev.sluice.store.algorithm;

import dev.sluice.rules.Limit;
import dev.sluice.rules.Window;
import dev.sluice.store.Usage;

/**
 * One decision of the sliding window, shared by both stores: the memory store applies it to its
 * counts, the Redis store to an operator's inspect. {@code lua/sliding_window.lua} does the same
 * operations in the same order on IEEE doubles, so both give bit-identical answers; this copy is
 * the one tested with a fake clock.
 *
 * <p>{@code estimate = previous × (window − elapsed) / window + current}; a take of {@code hits} is
 * allowed iff {@code estimate + hits <= limit}, and only then counted.
 *
 * @param previous hits counted in the window before the current one
 * @param current hits counted so far in the current window
 * @param elapsedMicros time since the current window began, 0 ≤ elapsed < window
 */
public record SlidingWindowEstimate(long previous, long current, long elapsedMicros) {

  /** The outcome: whether the hits were counted, and what to report. */
  public record Take(boolean allowed, Usage usage) {}

  /** Decides a take of {@code hits} (0 only reads) against {@code limit}. */
  public Take take(Limit limit, long hits) {
    long window = windowSeconds(limit) * 1_000_000L;
    double capacity = limit.requestsPerUnit();
    double estimate = previous * (double) (window - elapsedMicros) / window + current;
    boolean allowed = estimate + hits <= capacity;
    double after = allowed ? estimate + hits : estimate;
    long remaining = (long) Math.max(0, Math.floor(capacity - after));
    long untilReset = allowed ? window - elapsedMicros : untilFits(capacity, hits, window);
    long countAfter = limit.requestsPerUnit() - remaining + (allowed ? 0 : hits);
    Usage usage = new Usage(!allowed, remaining, untilReset, countAfter);
    return new Take(allowed, usage);
  }

  /**
   * The length of {@code limit}'s windows in seconds: always epoch-aligned windows of a fixed
   * length, the limit's unit times its multiplier ({@link Window.Fixed}), since a sliding window
   * takes no calendar windows ({@link dev.sluice.rules.Algorithm#allows(Window)}).
   */
  static long windowSeconds(Limit limit) {
    return ((Window.Fixed) limit.window()).lengthSeconds();
  }

  /**
   * Microseconds until the estimate has dropped enough for {@code hits}, at most one window: later
   * in this window if the current count leaves room, else into the next one, where this window
   * becomes the previous. Hits above the limit never fit: one window.
   */
  private long untilFits(double capacity, long hits, long window) {
    long wait;
    if (hits > capacity) {
      wait = window;
    } else if (current + hits <= capacity) {
      double needElapsed = Math.ceil(window - (capacity - current - hits) * window / previous);
      wait = (long) needElapsed - elapsedMicros;
    } else {
      double needNext = Math.ceil(window - (capacity - hits) * window / current);
      wait = window - elapsedMicros + (long) needNext;
    }
    return Math.max(1, Math.min(window, wait));
  }
}
