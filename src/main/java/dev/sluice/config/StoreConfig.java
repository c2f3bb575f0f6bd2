package dev.sluice.config;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Which store to use and how to reach Redis.
 *
 * @param redisUrl {@code redis://[user:password@]host:port[/db]} or {@code rediss://...}
 * @param redisTimeout connect and read timeout of one Redis call; keep it well under Envoy's 20 ms
 *     filter timeout so a hung Redis never stalls Envoy
 * @param redisConnections Redis connections; each one's writer sends everything queued for it as
 *     one pipeline, so a few serve any load
 * @param keyPrefix prepended to every Redis key, e.g. to share a Redis between environments
 */
public record StoreConfig(
    StoreKind kind, URI redisUrl, Duration redisTimeout, int redisConnections, String keyPrefix) {
  public StoreConfig {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(redisUrl, "redisUrl");
    String scheme = redisUrl.getScheme();
    if (!"redis".equals(scheme) && !"rediss".equals(scheme)) {
      throw new IllegalArgumentException(
          "redis url must start with redis:// or rediss://: " + redisUrl);
    }
    if (redisUrl.getHost() == null) {
      throw new IllegalArgumentException("redis url has no host: " + redisUrl);
    }
    if (redisTimeout.isNegative() || redisTimeout.isZero()) {
      throw new IllegalArgumentException("redis timeout must be positive: " + redisTimeout);
    }
    if (redisConnections < 1) {
      throw new IllegalArgumentException("redis connections must be >= 1: " + redisConnections);
    }
    Objects.requireNonNull(keyPrefix, "keyPrefix");
  }

  public static StoreConfig memory() {
    return new StoreConfig(
        StoreKind.MEMORY, URI.create("redis://localhost:6379"), Duration.ofMillis(10), 2, "");
  }

  public static StoreConfig redis(URI url) {
    return new StoreConfig(StoreKind.REDIS, url, Duration.ofMillis(10), 2, "");
  }
}
