package dev.sluice.config;

import dev.sluice.rules.Algorithm;
import java.util.Objects;

/**
 * How the limiter behaves beyond the rules.
 *
 * @param overrideAlgorithm how client-sent limit overrides are counted
 * @param failureMode what to answer when the store fails
 * @param instances how many Sluice instances share the limits; in {@link FailureMode#LOCAL} each
 *     enforces {@code ceil(limit / instances)} on its own
 * @param globalShadowMode answer OK overall whatever the statuses say (they stay as computed)
 * @param localCacheSize entries of the local over-limit cache; 0 turns it off
 */
public record LimiterConfig(
    Algorithm overrideAlgorithm,
    FailureMode failureMode,
    int instances,
    boolean globalShadowMode,
    long localCacheSize) {
  public LimiterConfig {
    Objects.requireNonNull(overrideAlgorithm, "overrideAlgorithm");
    Objects.requireNonNull(failureMode, "failureMode");
    if (instances < 1) {
      throw new IllegalArgumentException("instances must be >= 1: " + instances);
    }
    if (localCacheSize < 0) {
      throw new IllegalArgumentException("local cache size must be >= 0: " + localCacheSize);
    }
  }

  /** Without the local over-limit cache. */
  public LimiterConfig(
      Algorithm overrideAlgorithm,
      FailureMode failureMode,
      int instances,
      boolean globalShadowMode) {
    this(overrideAlgorithm, failureMode, instances, globalShadowMode, 0);
  }

  public static LimiterConfig defaults() {
    return new LimiterConfig(Algorithm.FIXED_WINDOW, FailureMode.ERROR, 1, false);
  }
}
