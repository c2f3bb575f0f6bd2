package dev.sluice.peer;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.redisson.Redisson;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@link RRateLimiter} (its Lua rate limiter), with a connection pool as large as the
 * most caller threads. A limiter object is made and its rate set ({@code trySetRate}, one more
 * round trip) the first time this process meets a key, as a service with per-key limits must; the
 * hot keys' are set up once, before the measurement.
 */
final class RedissonLimiter implements ComparedLimiter {
  /** Idle limiters' keys expire (Redisson's keep-alive), so random keys do not pile up. */
  private static final Duration KEEP_ALIVE = Duration.ofSeconds(10);

  private final RedissonClient client;
  private final ConcurrentMap<String, RRateLimiter> hot = new ConcurrentHashMap<>();

  RedissonLimiter(URI redis, int maxThreads) {
    Config config = new Config();
    config
        .useSingleServer()
        .setAddress("redis://" + redis.getHost() + ":" + redis.getPort())
        .setConnectionPoolSize(Math.max(maxThreads, 64))
        .setConnectionMinimumIdleSize(Math.min(maxThreads, 24));
    this.client = Redisson.create(config);
  }

  @Override
  public String name() {
    return "redisson";
  }

  @Override
  public boolean tryAcquire(Kind kind, String key) {
    String name = "rr:" + kind + ":" + key;
    RRateLimiter limiter =
        key.startsWith(EmbeddedComparison.HOT_PREFIX)
            ? hot.computeIfAbsent(name, n -> limiter(kind, n))
            : limiter(kind, name);
    return limiter.tryAcquire();
  }

  private RRateLimiter limiter(Kind kind, String name) {
    RRateLimiter limiter = client.getRateLimiter(name);
    switch (kind) {
      case OPEN ->
          limiter.trySetRate(RateType.OVERALL, OPEN_PER_SECOND, Duration.ofSeconds(1), KEEP_ALIVE);
      case ONE_PER_SECOND ->
          limiter.trySetRate(RateType.OVERALL, 1, Duration.ofSeconds(1), KEEP_ALIVE);
      case CLOSED ->
          limiter.trySetRate(RateType.OVERALL, 1, Duration.ofHours(1), Duration.ofHours(1));
    }
    return limiter;
  }

  @Override
  public void close() {
    client.shutdown();
  }
}
