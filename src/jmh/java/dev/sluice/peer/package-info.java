/**
 * Peers Sluice is compared with, run in-process: Bucket4j's Redis-backed bucket for {@code
 * bench/compare.sh} ({@code Bucket4jPeer}), and {@code EmbeddedComparison} for {@code
 * bench/embedded.sh}: Sluice's embedded limiter against Bucket4j's Jedis bucket and Redisson's
 * {@code RRateLimiter} on one Redis. Built only by the Maven profile {@code bench}, so no peer
 * library reaches Sluice's jar.
 */
package dev.sluice.peer;
