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
 * @param globalQuotaMode every descriptor but an unlimited one is in quota mode (the reference's
 *     QUOTA_MODE): the request is over the limit only when all of them are
 * @param nearLimitRatio hits above this share of a limit count as near it (metrics only), in (0,
 *     1]; multiplied in float precision, as in the reference
 * @param chargeDenied {@code --charge-denied}: whether refused hits are charged (the reference's
 *     behaviour), for rules without {@code charge_denied} and for overrides
 */
public record LimiterConfig(
    Algorithm overrideAlgorithm,
    FailureMode failureMode,
    int instances,
    boolean globalShadowMode,
    long localCacheSize,
    boolean globalQuotaMode,
    float nearLimitRatio,
    boolean chargeDenied) {
  /** The reference's NEAR_LIMIT_RATIO default. */
  public static final float DEFAULT_NEAR_LIMIT_RATIO =
      LimiterSettings.NEAR_LIMIT_RATIO.defaultValue();

  public LimiterConfig {
    Objects.requireNonNull(overrideAlgorithm, "overrideAlgorithm");
    Objects.requireNonNull(failureMode, "failureMode");
    if (instances < 1) {
      throw new IllegalArgumentException("instances must be >= 1: " + instances);
    }
    if (localCacheSize < 0) {
      throw new IllegalArgumentException("local cache size must be >= 0: " + localCacheSize);
    }
    if (!(nearLimitRatio > 0 && nearLimitRatio <= 1)) {
      throw new IllegalArgumentException("near limit ratio must be in (0, 1]: " + nearLimitRatio);
    }
  }

  /** Every setting at its declared default. */
  public static LimiterConfig defaults() {
    return from(SettingValues.defaults());
  }

  /** From the declared settings. */
  public static LimiterConfig from(SettingValues values) {
    return new LimiterConfig(
        values.get(RulesSettings.DEFAULT_ALGORITHM),
        values.get(LimiterSettings.FAILURE_MODE),
        values.get(LimiterSettings.INSTANCES),
        values.get(LimiterSettings.SHADOW_MODE),
        values.get(LimiterSettings.LOCAL_CACHE_SIZE),
        values.get(LimiterSettings.QUOTA_MODE),
        values.get(LimiterSettings.NEAR_LIMIT_RATIO),
        values.get(LimiterSettings.CHARGE_DENIED));
  }
}
