package dev.sluice.store;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;

/**
 * A counter's state right after a {@link Hit} was applied.
 *
 * @param overLimit fixed window: the count after this hit exceeds the limit; token bucket: the
 *     bucket held fewer tokens than this hit needs (and nothing was taken)
 * @param remaining hits still allowed in this window, or whole tokens left in the bucket
 * @param untilResetMicros fixed window: until the window ends; token bucket: until the bucket is
 *     full again (allowed) or until it holds enough tokens for this hit (over limit). Microseconds
 *     in a long, not a {@link Duration}: every decision carries one per limit, and the algorithms
 *     compute microseconds anyway (issue 16: 24 bytes per usage)
 * @param countAfter the counter on the limit's scale after this hit: the window's count, or for a
 *     bucket its capacity minus the whole tokens left (plus the refused hits when over limit); used
 *     for near/over-limit accounting
 */
public record Usage(boolean overLimit, long remaining, long untilResetMicros, long countAfter) {
  public Usage {
    if (remaining < 0) {
      throw new IllegalArgumentException("remaining must be >= 0: " + remaining);
    }
  }

  /** With the reset as a duration, to the microsecond (saturating at about 292,000 years). */
  public Usage(boolean overLimit, long remaining, Duration untilReset, long countAfter) {
    this(overLimit, remaining, TimeUnit.MICROSECONDS.convert(untilReset), countAfter);
  }

  /** {@link #untilResetMicros} as a duration, built on each call. */
  public Duration untilReset() {
    return Duration.of(untilResetMicros, ChronoUnit.MICROS);
  }
}
