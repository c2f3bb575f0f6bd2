package dev.sluice.rlqs;

import dev.sluice.rules.Limit;
import dev.sluice.rules.Match;
import dev.sluice.rules.NamedLimit;
import dev.sluice.rules.Rule;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a bucket's rule means for RLQS: the same answer for every client ({@link Blanket}), or a
 * rate divided among the clients of one counter ({@link Divided}). Immutable.
 */
sealed interface BucketPlan {

  /** The rule the bucket reached, for metrics and explanations; empty when none. */
  Optional<Rule> rule();

  /** Every client gets {@code assignment}. */
  record Blanket(Assignment assignment, Optional<Rule> rule) implements BucketPlan {}

  /**
   * The rule's rate divided among clients.
   *
   * @param group the counter the clients share: the rule and the counter entries, as RLS would key
   *     the counter, so {@code user=u1} and {@code user=u2} under one key-only rule are divided
   *     apart
   * @param limitPerSecond the rule's requests per unit over the window's length in seconds; for a
   *     {@code rate_limits} list, the lowest of its rates
   * @param burst the token bucket's burst, when the tightest limit is a token bucket
   */
  record Divided(Rule ruleReached, String group, double limitPerSecond, Optional<Long> burst)
      implements BucketPlan {
    @Override
    public Optional<Rule> rule() {
      return Optional.of(ruleReached);
    }
  }

  /**
   * The plan of a bucket that matched {@code match} (or nothing). {@code nowMillis} picks the
   * length of a calendar window.
   */
  static BucketPlan of(Optional<Match> match, long nowMillis) {
    if (match.isEmpty()) {
      return new Blanket(Assignment.ALLOW_ALL, Optional.empty());
    }
    Rule rule = match.get().rule();
    Optional<Limit> tightest =
        rule.limits().stream()
            .map(NamedLimit::limit)
            .min(Comparator.comparingDouble(limit -> perSecond(limit, nowMillis)));
    if (tightest.isEmpty() || rule.shadowMode()) {
      return new Blanket(Assignment.ALLOW_ALL, Optional.of(rule));
    }
    Limit limit = tightest.get();
    if (limit.requestsPerUnit() == 0) {
      return new Blanket(Assignment.DENY_ALL, Optional.of(rule));
    }
    String group =
        rule.id()
            + "|"
            + match.get().counterEntries().stream()
                .map(Object::toString)
                .collect(Collectors.joining(","));
    Optional<Long> burst =
        limit.algorithm().takesBurst() ? Optional.of(limit.burst()) : Optional.empty();
    return new Divided(rule, group, perSecond(limit, nowMillis), burst);
  }

  private static double perSecond(Limit limit, long nowMillis) {
    return limit.requestsPerUnit() * 1000.0 / limit.window().lengthMillis(nowMillis);
  }

  /** The longest fill interval: Envoy refills continuously, so it only sets the precision. */
  Duration MAX_FILL = Duration.ofHours(1);
}
