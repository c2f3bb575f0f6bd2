package dev.sluice.config;

import dev.sluice.rules.Consistency;
import java.time.Duration;
import java.util.Objects;

/**
 * The looser consistency modes.
 *
 * @param defaultConsistency for rules that name no {@code consistency}
 * @param syncInterval how often synced counters push their deltas and read the global counts back
 * @param syncMaxCounters synced counters (one per counter and window) held at most; past it new
 *     ones are counted exactly
 */
public record ConsistencyConfig(
    Consistency defaultConsistency, Duration syncInterval, long syncMaxCounters) {
  public static final Duration DEFAULT_SYNC_INTERVAL = LimiterSettings.SYNC_INTERVAL.defaultValue();
  public static final long DEFAULT_SYNC_MAX_COUNTERS =
      LimiterSettings.SYNC_MAX_COUNTERS.defaultValue();

  public ConsistencyConfig {
    Objects.requireNonNull(defaultConsistency, "defaultConsistency");
    if (syncInterval.isNegative() || syncInterval.isZero()) {
      throw new IllegalArgumentException("sync interval must be positive: " + syncInterval);
    }
    if (syncMaxCounters < 1) {
      throw new IllegalArgumentException("sync max counters must be >= 1: " + syncMaxCounters);
    }
  }

  /** Exact unless a rule says otherwise, syncing every 200 ms. */
  public static ConsistencyConfig defaults() {
    return new ConsistencyConfig(
        Consistency.EXACT, DEFAULT_SYNC_INTERVAL, DEFAULT_SYNC_MAX_COUNTERS);
  }

  /** From the declared settings. */
  public static ConsistencyConfig from(SettingValues values) {
    return new ConsistencyConfig(
        values.get(RulesSettings.DEFAULT_CONSISTENCY),
        values.get(LimiterSettings.SYNC_INTERVAL),
        values.get(LimiterSettings.SYNC_MAX_COUNTERS));
  }
}
