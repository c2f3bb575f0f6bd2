package dev.sluice.limiter;

import dev.sluice.rules.Limit;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The answer for one descriptor.
 *
 * @param currentLimit present only when the descriptor was counted
 * @param remaining hits (or whole tokens) left; 4294967295 for an unlimited rule
 * @param untilResetMicros microseconds until the reset, or {@link #NO_RESET} when none is known
 *     (not counted, or answered by the failure policy). A long, not an {@code Optional<Duration>}:
 *     that was two objects per descriptor of every decision (issue 16); {@link #untilReset()} gives
 *     the optional form
 * @param policies every limit of a counted descriptor, in list order (one for {@code rate_limit}),
 *     for the RateLimit headers; empty when not counted
 */
public record DescriptorDecision(
    Code code,
    Optional<CurrentLimit> currentLimit,
    long remaining,
    long untilResetMicros,
    List<CurrentLimit> policies) {

  /** The {@link #untilResetMicros} of a descriptor whose reset is unknown. */
  public static final long NO_RESET = -1;

  /** Not limited: unknown domain, no matching rule, a node without rate_limit, or replaced. */
  public static final DescriptorDecision NOT_LIMITED =
      new DescriptorDecision(Code.OK, Optional.empty(), 0, Optional.empty());

  /** An {@code unlimited: true} rule. */
  public static final DescriptorDecision UNLIMITED =
      new DescriptorDecision(Code.OK, Optional.empty(), Limit.MAX_UINT32, Optional.empty());

  public DescriptorDecision {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(currentLimit, "currentLimit");
    if (untilResetMicros < 0 && untilResetMicros != NO_RESET) {
      throw new IllegalArgumentException("untilResetMicros must be >= 0: " + untilResetMicros);
    }
    policies = List.copyOf(policies);
  }

  /** With the reset as an optional duration, to the microsecond. */
  public DescriptorDecision(
      Code code,
      Optional<CurrentLimit> currentLimit,
      long remaining,
      Optional<Duration> untilReset,
      List<CurrentLimit> policies) {
    this(code, currentLimit, remaining, microsOf(untilReset), policies);
  }

  /** A status whose only policy is its current limit. */
  public DescriptorDecision(
      Code code,
      Optional<CurrentLimit> currentLimit,
      long remaining,
      Optional<Duration> untilReset) {
    this(code, currentLimit, remaining, untilReset, currentLimit.map(List::of).orElse(List.of()));
  }

  /** Whether the reset is known: the descriptor was counted and answered by a store or cache. */
  public boolean hasReset() {
    return untilResetMicros != NO_RESET;
  }

  /** The reset as a duration, present only when {@link #hasReset}; built on each call. */
  public Optional<Duration> untilReset() {
    return hasReset()
        ? Optional.of(Duration.of(untilResetMicros, ChronoUnit.MICROS))
        : Optional.empty();
  }

  private static long microsOf(Optional<Duration> untilReset) {
    return untilReset.isPresent() ? TimeUnit.MICROSECONDS.convert(untilReset.get()) : NO_RESET;
  }
}
