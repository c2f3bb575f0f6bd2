package dev.sluice.replay;

/**
 * The busiest second of a count, in constant memory: the replay's seconds only move forward (its
 * clock never goes back), so one running second and its count are enough, however long the capture.
 * Used by the one replay thread.
 */
final class SecondPeak {
  private long second = Long.MIN_VALUE;
  private long inSecond;
  private long peak;

  /** Counts one event in {@code second}, which is never before the previous one's. */
  void add(long second) {
    if (second != this.second) {
      this.second = second;
      inSecond = 0;
    }
    inSecond++;
    peak = Math.max(peak, inSecond);
  }

  long peak() {
    return peak;
  }
}
