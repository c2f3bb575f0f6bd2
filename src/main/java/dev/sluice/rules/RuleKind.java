package dev.sluice.rules;

import java.util.Objects;

/**
 * What a rule does with the hits of a descriptor that lands on it: exactly one of three kinds, so a
 * {@code switch} over them makes a new kind a compile error rather than a missed {@code if}.
 */
public sealed interface RuleKind
    permits RuleKind.Counted, RuleKind.Unlimited, RuleKind.NoRateLimit {

  /** Hits are counted in the store against {@code limit}. */
  record Counted(Limit limit) implements RuleKind {
    public Counted {
      Objects.requireNonNull(limit, "limit");
    }
  }

  /** {@code unlimited: true}: never counted, answers OK with remaining 4294967295. */
  record Unlimited() implements RuleKind {}

  /**
   * A node without {@code rate_limit}: answers OK and counts nothing (the reference calls such
   * leaves a whitelist).
   */
  record NoRateLimit() implements RuleKind {}

  RuleKind UNLIMITED = new Unlimited();
  RuleKind NO_RATE_LIMIT = new NoRateLimit();
}
