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
  public static final long DEFAULT_MEMORY_MAX_COUNTERS =
      CapacitySettings.MEMORY_MAX_COUNTERS.defaultValue();

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

  /** The memory store at its default capacity (the Redis part at its defaults, unused). */
  public static StoreConfig memory() {
    return of(StoreKind.MEMORY, RedisConfig.defaults());
  }

  /** Every limit on {@code redis}, with the default breaker. */
  public static StoreConfig redis(RedisConfig redis) {
    return of(StoreKind.REDIS, redis);
  }

  private static StoreConfig of(StoreKind kind, RedisConfig redis) {
    return new StoreConfig(
        kind, redis, BreakerConfig.defaults(), DEFAULT_MEMORY_MAX_COUNTERS, Optional.empty());
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

  /** A builder holding this configuration, to change some of its parts. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.kind = kind;
    builder.redis = redis;
    builder.breaker = breaker;
    builder.memoryMaxCounters = memoryMaxCounters;
    builder.perSecondRedis = perSecondRedis;
    return builder;
  }

  /**
   * Collects the parts of a {@link StoreConfig}; {@link #build} validates them. Not thread-safe.
   */
  public static final class Builder {
    private StoreKind kind;
    private RedisConfig redis;
    private BreakerConfig breaker;
    private long memoryMaxCounters;
    private Optional<RedisConfig> perSecondRedis;

    private Builder() {}

    public Builder kind(StoreKind value) {
      this.kind = value;
      return this;
    }

    public Builder redis(RedisConfig value) {
      this.redis = value;
      return this;
    }

    public Builder breaker(BreakerConfig value) {
      this.breaker = value;
      return this;
    }

    public Builder memoryMaxCounters(long value) {
      this.memoryMaxCounters = value;
      return this;
    }

    public Builder perSecondRedis(Optional<RedisConfig> value) {
      this.perSecondRedis = value;
      return this;
    }

    public StoreConfig build() {
      return new StoreConfig(kind, redis, breaker, memoryMaxCounters, perSecondRedis);
    }
  }
}
