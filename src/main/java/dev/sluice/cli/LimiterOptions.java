package dev.sluice.cli;

import dev.sluice.config.ConsistencyConfig;
import dev.sluice.config.FailureMode;
import dev.sluice.config.LimiterConfig;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How a decision is made from the counts: the failure policy, shadow and quota mode, the local
 * over-limit cache, near-limit accounting, whether refused hits are charged, and how synced
 * counters sync.
 */
final class LimiterOptions {
  @Option(
      names = "--failure-mode",
      defaultValue = "${env:SLUICE_FAILURE_MODE:-error}",
      converter = Converters.FailureModeConverter.class,
      description =
          "When the store fails: error, allow, deny or local (env SLUICE_FAILURE_MODE, default ${DEFAULT-VALUE}).")
  FailureMode failureMode;

  @Option(
      names = "--instances",
      defaultValue = "${env:SLUICE_INSTANCES:-1}",
      description =
          "Sluice instances sharing the limits; failure mode local enforces limit/instances each (env SLUICE_INSTANCES, default ${DEFAULT-VALUE}).")
  int instances;

  @Option(
      names = "--local-cache-size",
      defaultValue = "${env:SLUICE_LOCAL_CACHE_SIZE:-0}",
      description =
          "Counters known to be over their limit answered locally, without the store; entries kept, 0 = off (env SLUICE_LOCAL_CACHE_SIZE, default ${DEFAULT-VALUE}).")
  long localCacheSize;

  @Option(
      names = "--shadow-mode",
      arity = "0..1",
      defaultValue = "${env:SLUICE_SHADOW_MODE:-false}",
      description =
          "Answer OK overall whatever the limits say; statuses and metrics unchanged (env SLUICE_SHADOW_MODE, default ${DEFAULT-VALUE}).")
  boolean shadowMode;

  @Option(
      names = "--quota-mode",
      arity = "0..1",
      defaultValue = "${env:SLUICE_QUOTA_MODE:-false}",
      description =
          "Every descriptor but an unlimited one is in quota mode: a request is over the limit only"
              + " when all of them are (env SLUICE_QUOTA_MODE, default ${DEFAULT-VALUE}).")
  boolean quotaMode;

  @Option(
      names = "--near-limit-ratio",
      defaultValue = "${env:SLUICE_NEAR_LIMIT_RATIO:-0.8}",
      description =
          "Hits above this share of a limit count in sluice_rule_near_limit_total, in (0, 1] (env"
              + " SLUICE_NEAR_LIMIT_RATIO, default ${DEFAULT-VALUE}).")
  float nearLimitRatio;

  @Option(
      names = "--charge-denied",
      arity = "0..1",
      defaultValue = "${env:SLUICE_CHARGE_DENIED:-true}",
      description =
          "Charge refused hits to the counters, as the reference does; false: a refused request charges none of the descriptors whose rule does not set charge_denied (env SLUICE_CHARGE_DENIED, default ${DEFAULT-VALUE}).")
  boolean chargeDenied;

  @Option(
      names = "--sync-interval",
      defaultValue = "${env:SLUICE_SYNC_INTERVAL:-200ms}",
      converter = Converters.DurationConverter.class,
      description =
          "How often synced-consistency counters push their deltas to the store and read the global counts back (env SLUICE_SYNC_INTERVAL, default ${DEFAULT-VALUE}).")
  Duration syncInterval;

  @Option(
      names = "--sync-max-counters",
      defaultValue = "${env:SLUICE_SYNC_MAX_COUNTERS:-1000000}",
      description =
          "Synced counters (one per counter and window) held locally at most, also while the store is down; past it new ones are counted exactly (env SLUICE_SYNC_MAX_COUNTERS, default ${DEFAULT-VALUE}).")
  long syncMaxCounters;

  LimiterConfig toConfig(Algorithm defaultAlgorithm) {
    return new LimiterConfig(
        defaultAlgorithm,
        failureMode,
        instances,
        shadowMode,
        localCacheSize,
        quotaMode,
        nearLimitRatio,
        chargeDenied);
  }

  ConsistencyConfig consistency(Consistency defaultConsistency) {
    return new ConsistencyConfig(defaultConsistency, syncInterval, syncMaxCounters);
  }
}
