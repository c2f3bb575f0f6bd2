/**
 * How the counting half of Sluice is put together: the store (memory or Redis) behind its breaker,
 * the per-second Redis, the synced and split counters, and the {@link
 * dev.sluice.limiter.RateLimiter} over them. Used by both roots, the server ({@link
 * dev.sluice.Sluice}) and the embedded limiter ({@link dev.sluice.embed.SluiceLimiter}), so there
 * is one way to build them and an embedded limiter counts exactly the counters a server counts. No
 * ports, no rules loading, no threads of its own.
 */
package dev.sluice.assembly;
