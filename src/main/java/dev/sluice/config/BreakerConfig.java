package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The circuit breaker around the store. Not flags yet: the defaults are the documented behaviour.
 *
 * @param failureThreshold consecutive failed calls that open the breaker
 * @param probeInterval how often an open breaker pings the backend
 */
public record BreakerConfig(int failureThreshold, Duration probeInterval) {
  public BreakerConfig {
    Objects.requireNonNull(probeInterval, "probeInterval");
    if (failureThreshold < 1) {
      throw new IllegalArgumentException("failure threshold must be >= 1: " + failureThreshold);
    }
    if (probeInterval.isNegative() || probeInterval.isZero()) {
      throw new IllegalArgumentException("probe interval must be positive: " + probeInterval);
    }
  }

  /** 5 failures in a row open it; a ping every 500 ms while open. */
  public static BreakerConfig defaults() {
    return new BreakerConfig(5, Duration.ofMillis(500));
  }
}
