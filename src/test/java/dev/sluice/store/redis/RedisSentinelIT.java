package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.Hammer;
import dev.sluice.testing.RedisSentinelExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Redis store through real sentinels: exact counts from two stores, a master found by name, a
 * one-line error for a master no sentinel knows.
 */
class RedisSentinelIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(1);
  private static final int THREADS = 32;

  @RegisterExtension static final RedisSentinelExtension sentinel = new RedisSentinelExtension();

  private final List<RedisCounterStore> opened = new ArrayList<>();
  private final String unique = UUID.randomUUID().toString();

  @AfterEach
  void close() {
    opened.forEach(RedisCounterStore::close);
  }

  /**
   * The stores' clock, stopped at the test's start: fixed windows count in the window holding that
   * instant, so no window boundary falls between the hits a test counts.
   */
  private final FakeClock startClock = new FakeClock(Instant.now());

  private RedisCounterStore open(String masterName) {
    RedisEndpoint endpoint =
        RedisEndpoint.parse("redis-sentinel://" + sentinel.sentinelSeeds() + "/" + masterName);
    RedisCounterStore store =
        new RedisCounterStore(
                RedisConfig.builder(endpoint).timeout(TIMEOUT).connections(2).keyPrefix("").build(),
                startClock,
                new DaemonThreadFactory("sluice-redis-lane"))
            .start();
    opened.add(store);
    return store;
  }

  private static boolean allowed(RedisCounterStore store, Hit hit) {
    return !store.acquire(List.of(hit)).join().get(0).overLimit();
  }

  @Test
  void twoStores_thirtyTwoThreads_admitExactlyTheLimit_forEveryAlgorithm() throws Exception {
    RedisCounterStore first = open(RedisSentinelExtension.MASTER_NAME);
    RedisCounterStore second = open(RedisSentinelExtension.MASTER_NAME);
    for (Algorithm algorithm : Algorithm.values()) {
      Limit limit =
          algorithm == Algorithm.TOKEN_BUCKET
              ? new Limit(100, Unit.DAY, algorithm, 100)
              : Limit.of(100, Unit.DAY, algorithm);
      Hit hit = new Hit("sentinel-exact-" + algorithm + "-" + unique, limit, 1);
      int allowed =
          Hammer.countAllowed(THREADS, 10, t -> () -> allowed(t % 2 == 0 ? first : second, hit));
      assertThat(allowed).as("%s: allowed of 320 attempts, limit 100", algorithm).isEqualTo(100);
    }
  }

  @Test
  void unknownMasterName_isAOneLineError() {
    RedisCounterStore store = open("no-such-master");
    assertThatThrownBy(store::ping)
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("no-such-master")
        .hasMessageNotContaining("\n");
  }

  @Test
  void completionException_unwrapsForCallers() {
    RedisCounterStore store = open("no-such-master");
    Hit hit = new Hit("sentinel-none-" + unique, Limit.of(1, Unit.DAY, Algorithm.FIXED_WINDOW), 1);
    assertThatThrownBy(() -> store.acquire(List.of(hit)).join())
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(StoreException.class);
  }
}
