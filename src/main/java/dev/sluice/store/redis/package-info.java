/**
 * The Redis store: {@link dev.sluice.store.redis.RedisCounterStore} counts fixed windows with
 * {@code INCRBY} plus a once-per-window {@code EXPIRE NX} and token buckets with {@code
 * lua/token_bucket.lua}, all hits of a request in one pipeline. {@link
 * dev.sluice.store.redis.RedisSettings} says where to connect. Jedis types stay inside this
 * package; callers see only {@link dev.sluice.store.CounterStore}.
 */
package dev.sluice.store.redis;
