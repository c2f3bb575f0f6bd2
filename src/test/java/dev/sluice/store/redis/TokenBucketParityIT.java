package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RedisConfig;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.rules.Window;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code token_bucket.lua} answers like {@code TokenBucketState}, the arithmetic tested with a fake
 * clock. Redis reads its own clock, so these limits are ones where the milliseconds a test takes
 * cannot change a whole token: a day-long refill, or none at all (then every field must match,
 * reset time included).
 */
class TokenBucketParityIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  /** Hits in an order that drains, refuses, checks with 0 and asks for more than the burst. */
  private static final long[] HITS = {1, 1, 2, 0, 5, 1, 3, 10, 1, 0, 2, 1};

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final InMemoryCounterStore memory = new InMemoryCounterStore(clock, clock);
  private final RedisCounterStore store =
      new RedisCounterStore(
              RedisConfig.builder(redis.endpoint())
                  .timeout(Duration.ofSeconds(2))
                  .connections(2)
                  .keyPrefix("")
                  .build(),
              Clock.systemUTC(),
              new DaemonThreadFactory("sluice-redis-lane"))
          .start();
  private final String unique = UUID.randomUUID().toString();

  @AfterEach
  void close() {
    store.close();
    memory.close();
  }

  @Test
  void dailyRefill_sameHitsOneAtATime_sameDecisionsTokensAndCounts() {
    for (Limit limit :
        List.of(bucket(24, Unit.DAY, 6), bucket(100, Unit.DAY, 3), bucket(1, Unit.WEEK, 8))) {
      String key = "tb|parity-" + limit + "-" + unique;
      for (int i = 0; i < HITS.length; i++) {
        Hit hit = new Hit(key, limit, HITS[i]);
        Usage expected = memory.acquire(List.of(hit)).join().get(0);
        Usage actual = store.acquire(List.of(hit)).join().get(0);
        assertThat(actual.overLimit())
            .as("%s hit %d: over", limit, i)
            .isEqualTo(expected.overLimit());
        assertThat(actual.remaining())
            .as("%s hit %d: remaining", limit, i)
            .isEqualTo(expected.remaining());
        assertThat(actual.countAfter())
            .as("%s hit %d: count", limit, i)
            .isEqualTo(expected.countAfter());
      }
    }
  }

  /**
   * Windows other than one unit: the script is sent the window the service clock is in (here the
   * fake clock of both stores, in February 2024, a 29-day month), so both refill at one rate.
   */
  @Test
  void calendarAndMultipliedWindows_sameHitsOneAtATime_sameDecisionsTokensAndCounts() {
    FakeClock february = new FakeClock(java.time.Instant.parse("2024-02-10T12:00:00Z"));
    InMemoryCounterStore memoryInFebruary = new InMemoryCounterStore(february, february);
    RedisCounterStore redisInFebruary =
        new RedisCounterStore(
                RedisConfig.builder(redis.endpoint())
                    .timeout(Duration.ofSeconds(2))
                    .connections(2)
                    .keyPrefix("")
                    .build(),
                february,
                new DaemonThreadFactory("sluice-redis-lane"))
            .start();
    try {
      for (Window window :
          List.of(
              new Window.Calendar(Unit.MONTH, ZoneId.of("Europe/Berlin")),
              new Window.Fixed(Unit.HOUR, 30))) {
        Limit limit = new Limit(29, window, Algorithm.TOKEN_BUCKET, 6, Consistency.EXACT);
        String key = "tb|parity-" + window.keyPart() + "-" + unique;
        long started = System.nanoTime();
        for (int i = 0; i < HITS.length; i++) {
          Hit hit = new Hit(key, limit, HITS[i]);
          Usage expected = memoryInFebruary.acquire(List.of(hit)).join().get(0);
          Usage actual = redisInFebruary.acquire(List.of(hit)).join().get(0);
          assertThat(actual.overLimit()).as("%s hit %d", window, i).isEqualTo(expected.overLimit());
          assertThat(actual.remaining()).as("%s hit %d", window, i).isEqualTo(expected.remaining());
          assertThat(actual.countAfter())
              .as("%s hit %d", window, i)
              .isEqualTo(expected.countAfter());
          // Redis refilled for the real time since the bucket's first hit, no more than the test
          // measured since: its reset is sooner by that much at most.
          Duration since = Duration.ofNanos(System.nanoTime() - started).plusMillis(1);
          assertThat(actual.untilReset())
              .as("%s hit %d: reset", window, i)
              .isBetween(expected.untilReset().minus(since), expected.untilReset());
        }
      }
    } finally {
      redisInFebruary.close();
      memoryInFebruary.close();
    }
  }

  @Test
  void noRefill_sameHitsInOneRequest_identicalUsages() {
    Limit limit = bucket(0, Unit.HOUR, 7);
    String key = "tb|never-" + unique;
    List<Hit> hits = java.util.Arrays.stream(HITS).mapToObj(n -> new Hit(key, limit, n)).toList();
    List<Usage> expected = memory.acquire(hits).join();
    assertThat(store.acquire(hits).join()).containsExactlyElementsOf(expected);
    assertThat(expected).extracting(Usage::overLimit).contains(true, false);
  }

  private static Limit bucket(long perUnit, Unit unit, long burst) {
    return new Limit(perUnit, unit, Algorithm.TOKEN_BUCKET, burst);
  }
}
