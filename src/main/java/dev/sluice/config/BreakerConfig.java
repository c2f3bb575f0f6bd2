package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;

/**
 * When the circuit breaker around the store opens: on the store being unhealthy, not on a few slow
 * replies. It opens at once when the store cannot be reached (a connection refused or not
 * answered), and otherwise when at least {@code failureRatePercent} of the calls that ended in the
 * last {@code window} failed, once there were at least {@code minimumCalls} of them. A shed request
 * (the store's queue was full) or an error reply about one key's data never counts.
 *
 * @param failureRatePercent share of failed calls that opens the breaker, 1 to 100
 * @param minimumCalls calls in the window before the rate is judged at all, at least 1
 * @param window how far back calls count, whole seconds, 1 s to 1 h
 * @param probeInterval how often an open breaker pings the backend
 */
public record BreakerConfig(
    int failureRatePercent, int minimumCalls, Duration window, Duration probeInterval) {
  public static final int DEFAULT_FAILURE_RATE_PERCENT =
      OverloadSettings.BREAKER_FAILURE_RATE.defaultValue();
  public static final int DEFAULT_MINIMUM_CALLS =
      OverloadSettings.BREAKER_MINIMUM_CALLS.defaultValue();
  public static final Duration DEFAULT_WINDOW = OverloadSettings.BREAKER_WINDOW.defaultValue();
  public static final Duration DEFAULT_PROBE_INTERVAL = Duration.ofMillis(500);

  public BreakerConfig {
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(probeInterval, "probeInterval");
    if (failureRatePercent < 1 || failureRatePercent > 100) {
      throw new IllegalArgumentException(
          "breaker failure rate must be between 1 and 100 (percent): " + failureRatePercent);
    }
    if (minimumCalls < 1) {
      throw new IllegalArgumentException("breaker minimum calls must be >= 1: " + minimumCalls);
    }
    if (window.compareTo(Duration.ofSeconds(1)) < 0
        || window.compareTo(Duration.ofHours(1)) > 0
        || window.getNano() != 0) {
      throw new IllegalArgumentException(
          "breaker window must be whole seconds between 1s and 1h: " + window);
    }
    if (probeInterval.isNegative() || probeInterval.isZero()) {
      throw new IllegalArgumentException("probe interval must be positive: " + probeInterval);
    }
  }

  /** At least 50 % of at least 20 calls in 10 s open it; a ping every 500 ms while open. */
  public static BreakerConfig defaults() {
    return new BreakerConfig(
        DEFAULT_FAILURE_RATE_PERCENT,
        DEFAULT_MINIMUM_CALLS,
        DEFAULT_WINDOW,
        DEFAULT_PROBE_INTERVAL);
  }

  /** From the declared settings; the probe interval is not one. */
  public static BreakerConfig from(SettingValues values) {
    return new BreakerConfig(
        values.get(OverloadSettings.BREAKER_FAILURE_RATE),
        values.get(OverloadSettings.BREAKER_MINIMUM_CALLS),
        values.get(OverloadSettings.BREAKER_WINDOW),
        BreakerConfig.DEFAULT_PROBE_INTERVAL);
  }
}
