package dev.sluice.config;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Which store to use and how to reach Redis.
 *
 * @param redisUrl {@code redis://[user:password@]host:port[/db]} or {@code rediss://...}
 * @param redisTimeout connect and read timeout of one Redis call
 * @param redisPoolSize Redis connections, each sending whatever requests are queued for it as one
 *     pipeline
 * @param keyPrefix prepended to every Redis key, e.g. to share a Redis between environments
 */
public record StoreConfig(
    StoreKind kind, URI redisUrl, Duration redisTimeout, int redisPoolSize, String keyPrefix) {
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
    if (redisPoolSize < 1) {
      throw new IllegalArgumentException("redis pool size must be >= 1: " + redisPoolSize);
    }
    Objects.requireNonNull(keyPrefix, "keyPrefix");
  }
}
