package dev.sluice.cli;

import dev.sluice.config.BreakerConfig;
import dev.sluice.config.OverloadSettings;
import dev.sluice.config.RedisConfig;
import dev.sluice.config.SettingValues;

/**
 * How Sluice behaves when the store is busy or broken (issue 11.12): how much work a Redis
 * connection may hold before requests are shed, and when the circuit breaker opens. Defaults in
 * {@link BreakerConfig#defaults()} and {@link RedisConfig#DEFAULT_MAX_QUEUED_HITS}.
 */
final class OverloadOptions {
  private final SettingValues values;

  OverloadOptions(SettingValues values) {
    this.values = values;
  }

  BreakerConfig breaker() {
    return new BreakerConfig(
        values.get(OverloadSettings.BREAKER_FAILURE_RATE),
        values.get(OverloadSettings.BREAKER_MINIMUM_CALLS),
        values.get(OverloadSettings.BREAKER_WINDOW),
        BreakerConfig.DEFAULT_PROBE_INTERVAL);
  }
}
