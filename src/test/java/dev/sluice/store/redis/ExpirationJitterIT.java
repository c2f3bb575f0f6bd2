package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RedisConfig;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.algorithm.FixedWindow;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * {@code --expiration-jitter} (the reference's EXPIRATION_JITTER_MAX_SECONDS) on a real Redis: the
 * counters of one window expire spread over the jitter instead of in the same second, and never
 * before their window ends.
 */
class ExpirationJitterIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final int KEYS = 200;
  private static final Limit MINUTE = Limit.of(5, Unit.MINUTE, Algorithm.FIXED_WINDOW);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_002_800L);

  private List<Long> ttlsWith(Duration jitter, String prefix) {
    RedisConfig settings =
        RedisConfig.builder(redis.endpoint())
            .timeout(Duration.ofSeconds(2))
            .connections(2)
            .keyPrefix(prefix)
            .build()
            .toBuilder()
            .expirationJitter(jitter)
            .build();
    List<Hit> hits = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      hits.add(new Hit("jitter|k" + i, MINUTE, 1));
    }
    try (RedisCounterStore store =
            new RedisCounterStore(settings, clock, new DaemonThreadFactory("sluice-redis-lane"))
                .start();
        Jedis jedis = redis.client()) {
      store.acquire(hits).join();
      // A second hit keeps each counter's first expiry (NX): the jitter is drawn once per window.
      store.acquire(hits).join();
      long index = FixedWindow.index(clock.millis(), MINUTE.unit().millis());
      List<Long> ttls = new ArrayList<>();
      for (Hit hit : hits) {
        ttls.add(jedis.pttl(prefix + hit.key() + "|" + index));
      }
      return ttls;
    }
  }

  @Test
  void jitter_spreadsExpiriesOverTheJitter_neverShorterThanTheWindow() {
    List<Long> ttls = ttlsWith(Duration.ofMinutes(5), "on:");

    Set<Long> seconds = new TreeSet<>();
    for (long ttl : ttls) {
      // Redis counts down while we read: allow a few seconds below the window.
      assertThat(ttl).isBetween(55_000L, 360_000L);
      seconds.add(ttl / 1000);
    }
    // 200 draws over 300 s: nearly all land in different seconds (expected ~150 distinct).
    assertThat(seconds.size()).isGreaterThan(100);
    assertThat(ttls.stream().mapToLong(Long::longValue).max().orElseThrow()).isGreaterThan(200_000);
  }

  @Test
  void noJitter_everyCounterExpiresWithItsWindow() {
    for (long ttl : ttlsWith(Duration.ZERO, "off:")) {
      assertThat(ttl).isBetween(55_000L, 60_000L);
    }
  }
}
