package dev.sluice.peer;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.jedis.Bucket4jJedis;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/**
 * Bucket4j's Redis bucket over Jedis (compare-and-swap, its documented Jedis integration), one
 * pooled connection per caller thread, each limit a greedy-refill bucket of its capacity.
 */
final class Bucket4jLimiter implements ComparedLimiter {
  private final JedisPool pool;
  private final ProxyManager<byte[]> buckets;
  private final Map<Kind, Supplier<BucketConfiguration>> configurations = new EnumMap<>(Kind.class);

  Bucket4jLimiter(URI redis, int maxThreads) {
    GenericObjectPoolConfig<Jedis> poolConfig = new GenericObjectPoolConfig<>();
    poolConfig.setMaxTotal(maxThreads);
    poolConfig.setMaxIdle(maxThreads);
    this.pool = new JedisPool(poolConfig, redis.getHost(), redis.getPort());
    this.buckets =
        Bucket4jJedis.casBasedBuilder(pool)
            .expirationAfterWrite(
                ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                    Duration.ofSeconds(10)))
            .build();
    configurations.put(Kind.OPEN, configuration(OPEN_PER_SECOND, Duration.ofSeconds(1)));
    configurations.put(Kind.ONE_PER_SECOND, configuration(1, Duration.ofSeconds(1)));
    configurations.put(Kind.CLOSED, configuration(1, Duration.ofHours(1)));
  }

  private static Supplier<BucketConfiguration> configuration(long capacity, Duration period) {
    BucketConfiguration configuration =
        BucketConfiguration.builder()
            .addLimit(limit -> limit.capacity(capacity).refillGreedy(capacity, period))
            .build();
    return () -> configuration;
  }

  @Override
  public String name() {
    return "bucket4j-jedis";
  }

  @Override
  public boolean tryAcquire(Kind kind, String key) {
    byte[] bytes = ("b4j:" + kind + ":" + key).getBytes(StandardCharsets.UTF_8);
    return buckets.getProxy(bytes, configurations.get(kind)).tryConsume(1);
  }

  @Override
  public void close() {
    pool.close();
  }
}
