package dev.sluice.limiter;

import dev.sluice.config.LimiterConfig;
import dev.sluice.metrics.RuleCounts;
import dev.sluice.rules.Limit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.CountingAlgorithm;

/**
 * Splits one descriptor's hits into total / over / near / within / shadow, following the reference
 * service's accounting so dashboards built on it read the same.
 */
final class HitAccounting {
  private final float nearLimitRatio;

  /**
   * @param nearLimitRatio hits above this share of the limit are "near" it
   */
  HitAccounting(float nearLimitRatio) {
    this.nearLimitRatio = nearLimitRatio;
  }

  /** With the reference's default ratio, 0.8. */
  static RuleCounts of(Limit limit, long hits, Usage usage, boolean shadow) {
    return new HitAccounting(LimiterConfig.DEFAULT_NEAR_LIMIT_RATIO)
        .counts(limit, hits, usage, shadow);
  }

  /** A hit charged by its algorithm alone, as the reference charges. */
  private static final RuleCounts ONE_WITHIN = new RuleCounts(1, 0, 0, 1, 0, 0);

  RuleCounts counts(Limit limit, long hits, Usage usage, boolean shadow) {
    return counts(
        limit, hits, usage, shadow, CountingAlgorithm.of(limit.algorithm()).chargesRefusedHits());
  }

  /**
   * @param refusedHitsCharged a refused hit was still charged (a lone fixed window that charges
   *     denied hits); otherwise a refused hit consumed nothing
   */
  RuleCounts counts(
      Limit limit, long hits, Usage usage, boolean shadow, boolean refusedHitsCharged) {
    long capacity = limit.capacity();
    // The reference's threshold: floor(float32(limit) * ratio), so the same limits round alike.
    long near = (long) Math.floor((float) capacity * nearLimitRatio);
    long after = usage.countAfter();
    // Never negative, so no metric counter is handed a negative increment (issue 11.2).
    long before = Math.max(0, after - hits);
    if (!usage.overLimit()) {
      long nearHits = after > near ? (before >= near ? hits : after - near) : 0;
      if (hits == 1 && nearHits == 0) {
        return ONE_WITHIN; // the answer to almost every request: shared, a record is a value
      }
      return new RuleCounts(hits, 0, nearHits, hits, 0, 0);
    }
    if (!refusedHitsCharged) {
      // A refused take consumes nothing: every hit of it is over the limit.
      return new RuleCounts(hits, hits, 0, 0, shadow ? hits : 0, 0);
    }
    long overHits = before >= capacity ? hits : after - capacity;
    long nearHits = before < capacity ? capacity - Math.max(near, before) : 0;
    return new RuleCounts(hits, overHits, nearHits, 0, shadow ? overHits : 0, 0);
  }

  /** A hit answered from the local over-limit cache: all of it is over the limit. */
  static RuleCounts cachedOver(long hits, boolean shadow) {
    return new RuleCounts(hits, hits, 0, 0, shadow ? hits : 0, hits);
  }
}
