/**
 * The Redis store: {@link dev.sluice.store.redis.RedisCounterStore} counts fixed windows with
 * {@code INCRBY} plus a once-per-window {@code EXPIRE NX} and token buckets with {@code
 * lua/token_bucket.lua}, all hits of a request in one pipeline. A few {@code PipelineLane}s, each
 * one connection and one writer thread, send whatever requests are queued as one pipeline, so under
 * load one round trip carries many requests and no caller's thread waits on Redis. Where to connect
 * comes from {@link dev.sluice.config.RedisConfig}. Jedis types stay inside this package; callers
 * see only {@link dev.sluice.store.CounterStore}.
 */
package dev.sluice.store.redis;
