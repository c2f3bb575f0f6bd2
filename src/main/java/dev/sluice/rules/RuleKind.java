package dev.sluice.rules;

import java.util.List;
import java.util.Objects;

/**
 * What a rule does with the hits of a descriptor that lands on it: exactly one of four kinds, so a
 * {@code switch} over them makes a new kind a compile error rather than a missed {@code if}.
 */
public sealed interface RuleKind
    permits RuleKind.Counted, RuleKind.Several, RuleKind.Unlimited, RuleKind.NoRateLimit {

  /** Hits are counted in the store against {@code limit}. */
  record Counted(Limit limit) implements RuleKind {
    public Counted {
      Objects.requireNonNull(limit, "limit");
    }
  }

  /**
   * {@code rate_limits:}: several limits on one descriptor, decided as one. A hit is allowed only
   * when every limit allows it and is then charged to all; when one refuses, none is charged.
   *
   * @param limits two or more (one is allowed too: it decides exactly like {@link Counted} does for
   *     a {@code charge_denied: false} rule), in file order, no two with the same window (by its
   *     key: 60 minutes and an hour are one window) and algorithm (they would count the same thing
   *     twice, in one counter)
   */
  record Several(List<NamedLimit> limits) implements RuleKind {
    public Several {
      limits = List.copyOf(limits);
      if (limits.isEmpty()) {
        throw new IllegalArgumentException("rate_limits must hold at least one limit");
      }
      for (int i = 0; i < limits.size(); i++) {
        for (int j = 0; j < i; j++) {
          Limit a = limits.get(i).limit();
          Limit b = limits.get(j).limit();
          if (a.window().keyPart().equals(b.window().keyPart()) && a.algorithm() == b.algorithm()) {
            throw new IllegalArgumentException(
                "rate_limits has two limits per " + a.window().words() + " by " + a.algorithm());
          }
        }
      }
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
