package dev.sluice.live;

import dev.sluice.rules.Limit;

/**
 * One rule's decisions and refusals per second over a fixed ring of seconds, plus running totals
 * that match the rule's Prometheus counters. Memory is fixed: {@code 3 * seconds} longs.
 *
 * <p>Thread-safe: the monitor guards the ring and the totals. The critical section is a few array
 * writes; a bucket whose stamp is an older second is cleared before it is reused.
 */
public final class RateSeries {
  /** Totals since start, on the same scale as {@code sluice_rule_hits_total} and friends. */
  public record Totals(long decisions, long refusals, long hits, long overLimitHits) {}

  /** The limit last counted under this rule: the current one after a reload changed it. */
  private volatile Limit limit;

  private final long[] stamps;
  private final long[] decisions;
  private final long[] refusals;
  private long totalDecisions;
  private long totalRefusals;
  private long totalHits;
  private long totalOver;

  RateSeries(int seconds, Limit limit) {
    this.limit = limit;
    stamps = new long[seconds];
    java.util.Arrays.fill(stamps, Long.MIN_VALUE);
    decisions = new long[seconds];
    refusals = new long[seconds];
  }

  Limit limit() {
    return limit;
  }

  /** Notes the limit counted now; a write only when a reload (or an override) changed it. */
  void counted(Limit counted) {
    if (limit != counted) {
      limit = counted;
    }
  }

  synchronized void add(long epochSecond, boolean refused, long hits, long overHits) {
    int i = bucket(epochSecond);
    if (stamps[i] != epochSecond) {
      stamps[i] = epochSecond;
      decisions[i] = 0;
      refusals[i] = 0;
    }
    decisions[i]++;
    totalDecisions++;
    totalHits += hits;
    totalOver += overHits;
    if (refused) {
      refusals[i]++;
      totalRefusals++;
    }
  }

  /**
   * The last {@code seconds} seconds ending with {@code nowSecond} (included), oldest first: {@code
   * [0]} decisions, {@code [1]} refusals per second.
   */
  synchronized long[][] window(long nowSecond) {
    int n = stamps.length;
    long[][] out = new long[2][n];
    for (int k = 0; k < n; k++) {
      long second = nowSecond - (n - 1) + k;
      int i = bucket(second);
      if (stamps[i] == second) {
        out[0][k] = decisions[i];
        out[1][k] = refusals[i];
      }
    }
    return out;
  }

  synchronized Totals totals() {
    return new Totals(totalDecisions, totalRefusals, totalHits, totalOver);
  }

  private int bucket(long epochSecond) {
    return (int) Math.floorMod(epochSecond, (long) stamps.length);
  }
}
