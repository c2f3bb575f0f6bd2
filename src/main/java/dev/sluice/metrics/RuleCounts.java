package dev.sluice.metrics;

/**
 * How one descriptor's hits split, in the reference service's vocabulary.
 *
 * @param total every hit counted against the rule
 * @param over hits above the limit (shadow-mode ones included)
 * @param near hits between 80% of the limit and the limit
 * @param within hits of an allowed answer
 * @param shadow over-limit hits a shadow-mode rule let through
 * @param localCache over-limit hits answered from the local cache, without the store
 */
public record RuleCounts(
    long total, long over, long near, long within, long shadow, long localCache) {}
