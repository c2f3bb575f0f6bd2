package dev.sluice.limiter;

import dev.sluice.rules.Limit;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer for one descriptor.
 *
 * @param currentLimit present only when the descriptor was counted
 * @param remaining hits (or whole tokens) left; 4294967295 for an unlimited rule
 * @param untilReset present only when the descriptor was counted
 * @param policies every limit of a counted descriptor, in list order (one for {@code rate_limit}),
 *     for the RateLimit headers; empty when not counted
 */
public record DescriptorDecision(
    Code code,
    Optional<CurrentLimit> currentLimit,
    long remaining,
    Optional<Duration> untilReset,
    List<CurrentLimit> policies) {

  /** Not limited: unknown domain, no matching rule, a node without rate_limit, or replaced. */
  public static final DescriptorDecision NOT_LIMITED =
      new DescriptorDecision(Code.OK, Optional.empty(), 0, Optional.empty());

  /** An {@code unlimited: true} rule. */
  public static final DescriptorDecision UNLIMITED =
      new DescriptorDecision(Code.OK, Optional.empty(), Limit.MAX_UINT32, Optional.empty());

  public DescriptorDecision {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(currentLimit, "currentLimit");
    Objects.requireNonNull(untilReset, "untilReset");
    policies = List.copyOf(policies);
  }

  /** A status whose only policy is its current limit. */
  public DescriptorDecision(
      Code code,
      Optional<CurrentLimit> currentLimit,
      long remaining,
      Optional<Duration> untilReset) {
    this(code, currentLimit, remaining, untilReset, currentLimit.map(List::of).orElse(List.of()));
  }
}
