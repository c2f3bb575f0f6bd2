package dev.sluice.config;

import java.time.Duration;
import java.util.List;

/**
 * How a decision is made from the counts: failure policy, shadow and quota mode, local cache,
 * near-limit accounting, charging refused hits, synced counters.
 */
public final class LimiterSettings {
  public static final Setting<FailureMode> FAILURE_MODE =
      Setting.of(
          "--failure-mode",
          "SLUICE_FAILURE_MODE",
          "error",
          FailureMode::parse,
          "When the store fails: error, allow, deny or local");

  public static final Setting<Integer> INSTANCES =
      Setting.integer(
          "--instances",
          "SLUICE_INSTANCES",
          "1",
          "Sluice instances sharing the limits; failure mode local enforces limit/instances each");

  public static final Setting<Long> LOCAL_CACHE_SIZE =
      Setting.longValue(
          "--local-cache-size",
          "SLUICE_LOCAL_CACHE_SIZE",
          "0",
          "Counters known to be over their limit answered locally, without the store; entries kept, 0 = off");

  public static final Setting<Boolean> SHADOW_MODE =
      Setting.bool(
          "--shadow-mode",
          "SLUICE_SHADOW_MODE",
          false,
          "Answer OK overall whatever the limits say; statuses and metrics unchanged");

  public static final Setting<Boolean> QUOTA_MODE =
      Setting.bool(
          "--quota-mode",
          "SLUICE_QUOTA_MODE",
          false,
          "Every descriptor but an unlimited one is in quota mode: a request is over the limit only when all of them are");

  public static final Setting<Float> NEAR_LIMIT_RATIO =
      Setting.of(
          "--near-limit-ratio",
          "SLUICE_NEAR_LIMIT_RATIO",
          "0.8",
          SettingText::floatValue,
          "Hits above this share of a limit count in sluice_rule_near_limit_total, in (0, 1]");

  public static final Setting<Boolean> CHARGE_DENIED =
      Setting.bool(
          "--charge-denied",
          "SLUICE_CHARGE_DENIED",
          true,
          "Charge refused hits to the counters, as the reference does; false: a refused request charges none of the descriptors whose rule does not set charge_denied");

  public static final Setting<Duration> SYNC_INTERVAL =
      Setting.duration(
          "--sync-interval",
          "SLUICE_SYNC_INTERVAL",
          "200ms",
          "How often synced-consistency counters push their deltas to the store and read the global counts back");

  public static final Setting<Long> SYNC_MAX_COUNTERS =
      Setting.longValue(
          "--sync-max-counters",
          "SLUICE_SYNC_MAX_COUNTERS",
          "1000000",
          "Synced counters (one per counter and window) held locally at most, also while the store is down; past it new ones are counted exactly");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(
          FAILURE_MODE,
          INSTANCES,
          LOCAL_CACHE_SIZE,
          SHADOW_MODE,
          QUOTA_MODE,
          NEAR_LIMIT_RATIO,
          CHARGE_DENIED,
          SYNC_INTERVAL,
          SYNC_MAX_COUNTERS);

  private LimiterSettings() {}
}
