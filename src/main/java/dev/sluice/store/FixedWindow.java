package dev.sluice.store;

import java.time.Duration;

/**
 * Epoch-aligned window arithmetic shared by the stores, on the service's clock (as in the reference
 * service, so every instance agrees on window boundaries up to clock skew).
 */
public final class FixedWindow {
  private FixedWindow() {}

  /** The index of the window holding {@code nowMillis}: windows since the Unix epoch. */
  public static long index(long nowMillis, long windowMillis) {
    return Math.floorDiv(nowMillis, windowMillis);
  }

  /** Time left in the window holding {@code nowMillis}. */
  public static Duration untilEnd(long nowMillis, long windowMillis) {
    return Duration.ofMillis(windowMillis - Math.floorMod(nowMillis, windowMillis));
  }

  /** The usage a fixed-window counter reports for {@code countAfter} against {@code limit}. */
  public static Usage usage(long countAfter, long limit, Duration untilReset) {
    return new Usage(countAfter > limit, Math.max(0, limit - countAfter), untilReset, countAfter);
  }
}
