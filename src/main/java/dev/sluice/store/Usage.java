package dev.sluice.store;

import java.time.Duration;
import java.util.Objects;

/**
 * A counter's state right after a {@link Hit} was applied.
 *
 * @param overLimit fixed window: the count after this hit exceeds the limit; token bucket: the
 *     bucket held fewer tokens than this hit needs (and nothing was taken)
 * @param remaining hits still allowed in this window, or whole tokens left in the bucket
 * @param untilReset fixed window: until the window ends; token bucket: until the bucket is full
 *     again (allowed) or until it holds enough tokens for this hit (over limit)
 * @param countAfter the counter on the limit's scale after this hit: the window's count, or for a
 *     bucket its capacity minus the whole tokens left (plus the refused hits when over limit); used
 *     for near/over-limit accounting
 */
public record Usage(boolean overLimit, long remaining, Duration untilReset, long countAfter) {
  public Usage {
    if (remaining < 0) {
      throw new IllegalArgumentException("remaining must be >= 0: " + remaining);
    }
    Objects.requireNonNull(untilReset, "untilReset");
  }
}
