/**
 * The embeddable limiter: {@link dev.sluice.embed.SluiceLimiter} gives a JVM service Sluice's
 * decisions in-process, on the same rule files, limiter and stores as {@code sluice serve}, so an
 * embedded limiter and servers on one Redis share their counters. Its values ({@link
 * dev.sluice.embed.Descriptor}, {@link dev.sluice.embed.Decision}) are its own records: no
 * protobuf, Jedis or internal type is part of this API.
 *
 * <pre>{@code
 * SluiceLimiter limiter = SluiceLimiter.builder().rules(Path.of("rules")).redis(redisUrl).build();
 * boolean allowed = limiter.shouldRateLimit("api", Descriptor.of("user", id)).toCompletableFuture().join().allowed();
 * }</pre>
 */
package dev.sluice.embed;
