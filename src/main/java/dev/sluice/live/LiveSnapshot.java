package dev.sluice.live;

import java.util.List;

/**
 * The traffic part of the live page at one second.
 *
 * @param epochSecond the last second of every series (the current, still filling one)
 * @param topRefused the keys refused most over this minute and the one before, highest first
 */
public record LiveSnapshot(long epochSecond, List<RuleView> rules, List<KeyView> topRefused) {
  public LiveSnapshot {
    rules = List.copyOf(rules);
    topRefused = List.copyOf(topRefused);
  }

  /**
   * One rule's series, oldest second first, and its totals since start.
   *
   * @param limit the limit last counted under the rule, in words ({@code 100 per 15 minutes,
   *     fixed_window}); for {@code _override} and {@code _other}, the last one seen
   * @param decisions descriptors answered per second
   * @param refusals descriptors answered OVER_LIMIT per second
   */
  public record RuleView(
      String domain,
      String rule,
      String limit,
      RateSeries.Totals totals,
      long[] decisions,
      long[] refusals) {}

  /**
   * A refused counter.
   *
   * @param key {@code k=v,...}, with values hashed ({@code #3fa2...}) unless the rule is {@code
   *     detailed_metric}
   * @param count refusals counted by the sketch, an overestimate by at most {@code error}
   */
  public record KeyView(String domain, String rule, String key, long count, long error) {}
}
