package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BreakerConfig;
import dev.sluice.config.RedisConfig;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.GuardedStore;
import dev.sluice.store.Hit;
import dev.sluice.store.algorithm.FixedWindow;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.threads.DaemonThreadFactory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Issue 11.1: one key whose data makes Redis answer with an error (a counter at the top of the
 * integer range, a key of the wrong type) must not open the breaker for every other key.
 */
class DataErrorBreakerIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final int THRESHOLD = 3;
  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  private static final Limit FIXED = Limit.of(5, Unit.HOUR, Algorithm.FIXED_WINDOW);
  private static final Limit BUCKET = Limit.of(5, Unit.DAY, Algorithm.TOKEN_BUCKET);

  @Test
  void errorRepliesOnPoisonedKeys_neverOpenTheBreaker_otherKeysStillCounted() {
    long index = FixedWindow.index(NOW.toEpochMilli(), Unit.HOUR.millis());
    try (Jedis client = redis.client()) {
      client.set("fw|3600|poisoned|" + index, Long.toString(Long.MAX_VALUE));
      client.set("tb|86400|poisoned|s", "not a bucket");
    }
    RedisCounterStore backend =
        new RedisCounterStore(
                RedisConfig.builder(redis.endpoint())
                    .timeout(Duration.ofSeconds(2))
                    .connections(1)
                    .keyPrefix("")
                    .build(),
                Clock.fixed(NOW, ZoneOffset.UTC),
                new DaemonThreadFactory("sluice-redis-lane"))
            .start();
    try (GuardedStore store =
        new GuardedStore(
            backend,
            new BreakerConfig(50, THRESHOLD, Duration.ofSeconds(10), Duration.ofSeconds(1)),
            new SluiceMetrics(new PrometheusRegistry()),
            FakeClock.atEpochSecond(NOW.getEpochSecond()))) {
      for (int i = 0; i < THRESHOLD * 3; i++) {
        assertThat(failed(store, new Hit("fw|3600|poisoned", FIXED, 1)))
            .as("overflowing INCRBY")
            .isTrue();
        assertThat(failed(store, new Hit("tb|86400|poisoned", BUCKET, 1)))
            .as("a value the script cannot read")
            .isTrue();
      }
      assertThat(store.state()).isEqualTo("closed");
      for (int i = 1; i <= 3; i++) {
        assertThat(
                store
                    .acquire(List.of(new Hit("fw|3600|healthy", FIXED, 1)))
                    .join()
                    .get(0)
                    .countAfter())
            .isEqualTo(i);
      }
    }
  }

  private static boolean failed(GuardedStore store, Hit hit) {
    CompletableFuture<?> result = store.acquire(List.of(hit));
    try {
      result.join();
      return false;
    } catch (RuntimeException e) {
      return true;
    }
  }
}
