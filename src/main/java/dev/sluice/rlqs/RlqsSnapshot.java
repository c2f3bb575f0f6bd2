package dev.sluice.rlqs;

import java.util.List;

/**
 * What the RLQS service holds at one moment, for the live page: read-only values, no live state.
 *
 * @param streams Envoy streams open now
 * @param buckets buckets subscribed over all streams now
 * @param rules one row per rule that buckets reached or that reports were counted under, sorted by
 *     domain then rule
 */
public record RlqsSnapshot(int streams, long buckets, List<RuleRow> rules) {
  public RlqsSnapshot {
    rules = List.copyOf(rules);
  }

  /** No stream, no bucket: what a service that is off shows. */
  public static final RlqsSnapshot NONE = new RlqsSnapshot(0, 0, List.of());

  /**
   * One rule.
   *
   * @param rule the rule's path, or {@code _none} for buckets no rule matched
   * @param buckets buckets subscribed under it now
   * @param assignedPerSecond the sum of the shares last sent for it by this instance (divided
   *     rules; 0 for the others), as of the last server turn
   * @param limitPerSecond the rule's limit per second; 0 when it is not divided
   * @param allowed requests the Envoys reported allowed under it since start
   * @param denied requests the Envoys reported denied under it since start
   */
  public record RuleRow(
      String domain,
      String rule,
      long buckets,
      double assignedPerSecond,
      double limitPerSecond,
      long allowed,
      long denied) {}
}
