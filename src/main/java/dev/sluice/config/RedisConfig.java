package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the Redis store connects. Validated here completely, so a value accepted here never fails
 * later when the store opens.
 *
 * @param endpoint where Redis is, parsed from {@code --redis-url}
 * @param tls how {@code rediss...} connections trust the server and prove the client
 * @param sentinelPassword what the sentinels themselves require ({@code
 *     --redis-sentinel-password}), when they have a password of their own
 * @param timeout both the connect timeout and the socket (reply) timeout, 1 ms to {@code
 *     Integer.MAX_VALUE} ms (Jedis takes int milliseconds): a request whose pipeline gets no reply
 *     within it fails; keep it well under Envoy's 20 ms filter timeout
 * @param connections how many connections the store keeps to each master, at least 1; each is a
 *     lane with one writer thread that sends everything queued for it as one pipeline, so a few (2
 *     to 4) serve any load and more only spread requests thinner across round trips
 * @param keyPrefix prepended to every key the store writes, so several deployments can share one
 *     Redis; may be empty, never null
 */
public record RedisConfig(
    RedisEndpoint endpoint,
    RedisTls tls,
    Optional<Secret> sentinelPassword,
    Duration timeout,
    int connections,
    String keyPrefix) {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(10);
  public static final int DEFAULT_CONNECTIONS = 2;

  public RedisConfig {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(sentinelPassword, "sentinelPassword");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(keyPrefix, "keyPrefix");
    if (timeout.compareTo(Duration.ofMillis(1)) < 0
        || timeout.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException(
          "redis timeout must be between 1ms and " + Integer.MAX_VALUE + "ms: " + timeout);
    }
    if (connections < 1) {
      throw new IllegalArgumentException("redis connections must be >= 1: " + connections);
    }
  }

  /** Default TLS settings and no sentinel password. */
  public RedisConfig(RedisEndpoint endpoint, Duration timeout, int connections, String keyPrefix) {
    this(endpoint, RedisTls.DEFAULTS, Optional.empty(), timeout, connections, keyPrefix);
  }

  /** {@code url} with the default timeout and connections, no key prefix. */
  public static RedisConfig of(String url) {
    return new RedisConfig(RedisEndpoint.parse(url), DEFAULT_TIMEOUT, DEFAULT_CONNECTIONS, "");
  }

  /** The default {@code redis://localhost:6379}. */
  public static RedisConfig defaults() {
    return of("redis://localhost:6379");
  }

  public RedisConfig withTimeout(Duration newTimeout) {
    return new RedisConfig(endpoint, tls, sentinelPassword, newTimeout, connections, keyPrefix);
  }

  public RedisConfig withConnections(int newConnections) {
    return new RedisConfig(endpoint, tls, sentinelPassword, timeout, newConnections, keyPrefix);
  }

  public RedisConfig withKeyPrefix(String newKeyPrefix) {
    return new RedisConfig(endpoint, tls, sentinelPassword, timeout, connections, newKeyPrefix);
  }

  public RedisConfig withTls(RedisTls newTls) {
    return new RedisConfig(endpoint, newTls, sentinelPassword, timeout, connections, keyPrefix);
  }

  public RedisConfig withSentinelPassword(Optional<Secret> newSentinelPassword) {
    return new RedisConfig(endpoint, tls, newSentinelPassword, timeout, connections, keyPrefix);
  }
}
