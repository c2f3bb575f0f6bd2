package dev.sluice.config;

import java.util.Objects;

/**
 * Which store counts, how to reach Redis, and the breaker around the store. The Redis part is kept
 * (with its defaults) even for the memory store, because flags always have values.
 */
public record StoreConfig(StoreKind kind, RedisConfig redis, BreakerConfig breaker) {
  public StoreConfig {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(redis, "redis");
    Objects.requireNonNull(breaker, "breaker");
  }

  public static StoreConfig memory() {
    return new StoreConfig(StoreKind.MEMORY, RedisConfig.defaults(), BreakerConfig.defaults());
  }

  public static StoreConfig redis(RedisConfig redis) {
    return new StoreConfig(StoreKind.REDIS, redis, BreakerConfig.defaults());
  }
}
