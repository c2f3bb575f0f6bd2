package dev.sluice.cli;

import dev.sluice.config.ConsistencyConfig;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.LimiterSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;

/**
 * How a decision is made from the counts: the failure policy, shadow and quota mode, the local
 * over-limit cache, near-limit accounting, whether refused hits are charged, and how synced
 * counters sync.
 */
final class LimiterOptions {
  private final SettingValues values;

  LimiterOptions(SettingValues values) {
    this.values = values;
  }

  LimiterConfig toConfig(Algorithm defaultAlgorithm) {
    return new LimiterConfig(
        defaultAlgorithm,
        values.get(LimiterSettings.FAILURE_MODE),
        values.get(LimiterSettings.INSTANCES),
        values.get(LimiterSettings.SHADOW_MODE),
        values.get(LimiterSettings.LOCAL_CACHE_SIZE),
        values.get(LimiterSettings.QUOTA_MODE),
        values.get(LimiterSettings.NEAR_LIMIT_RATIO),
        values.get(LimiterSettings.CHARGE_DENIED));
  }

  ConsistencyConfig consistency(Consistency defaultConsistency) {
    return new ConsistencyConfig(
        defaultConsistency,
        values.get(LimiterSettings.SYNC_INTERVAL),
        values.get(LimiterSettings.SYNC_MAX_COUNTERS));
  }
}
