package dev.sluice.config;

import java.util.Objects;

/**
 * Which store counts, how to reach Redis, and the breaker around the store. The Redis part is kept
 * (with its defaults) even for the memory store, because flags always have values.
 */
public record StoreConfig(
    StoreKind kind, RedisConfig redis, BreakerConfig breaker, long memoryMaxCounters) {
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
}
