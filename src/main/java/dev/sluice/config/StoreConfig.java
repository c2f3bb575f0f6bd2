package dev.sluice.config;

import java.util.Objects;
import java.util.Optional;

/**
 * Which store counts, how to reach Redis, and the breaker around the store. The Redis part is kept
 * (with its defaults) even for the memory store, because flags always have values.
 *
 * @param perSecondRedis when present, limits whose unit is {@code second} are counted there (the
 *     reference's REDIS_PERSECOND), the others on {@code redis}; Redis store only
 */
public record StoreConfig(
    StoreKind kind,
    RedisConfig redis,
    BreakerConfig breaker,
    long memoryMaxCounters,
    Optional<RedisConfig> perSecondRedis) {
  /**
   * About 200 bytes each with typical keys (measured: see README "Memory store"), so about 200 MB
   * when full.
   */
  public static final long DEFAULT_MEMORY_MAX_COUNTERS = 1_000_000;

  public StoreConfig {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(redis, "redis");
    Objects.requireNonNull(breaker, "breaker");
    if (memoryMaxCounters < 1) {
      throw new IllegalArgumentException("memory max counters must be >= 1: " + memoryMaxCounters);
    }
    Objects.requireNonNull(perSecondRedis, "perSecondRedis");
    if (perSecondRedis.isPresent() && kind != StoreKind.REDIS) {
      throw new IllegalArgumentException(
          "a per-second Redis needs the Redis store (--store redis)");
    }
  }

  /** Every limit on the one store. */
  public StoreConfig(
      StoreKind kind, RedisConfig redis, BreakerConfig breaker, long memoryMaxCounters) {
    this(kind, redis, breaker, memoryMaxCounters, Optional.empty());
  }

  /** Limits whose unit is {@code second} on {@code perSecond}, the others on {@link #redis}. */
  public StoreConfig withPerSecondRedis(Optional<RedisConfig> perSecond) {
    return new StoreConfig(kind, redis, breaker, memoryMaxCounters, perSecond);
  }

  /** With the default memory store capacity. */
  public StoreConfig(StoreKind kind, RedisConfig redis, BreakerConfig breaker) {
    this(kind, redis, breaker, DEFAULT_MEMORY_MAX_COUNTERS);
  }

  public static StoreConfig memory() {
    return new StoreConfig(StoreKind.MEMORY, RedisConfig.defaults(), BreakerConfig.defaults());
  }

  public static StoreConfig redis(RedisConfig redis) {
    return new StoreConfig(StoreKind.REDIS, redis, BreakerConfig.defaults());
  }

  /** From the declared settings. */
  public static StoreConfig from(SettingValues values) {
    RedisConfig redis = RedisConfig.from(values);
    return new StoreConfig(
        values.get(ServeSettings.STORE),
        redis,
        BreakerConfig.from(values),
        values.get(CapacitySettings.MEMORY_MAX_COUNTERS),
        RedisConfig.perSecondFrom(values, redis));
  }
}
