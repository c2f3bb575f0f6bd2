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
import dev.sluice.testing.Eventually;
import dev.sluice.testing.Hammer;
import dev.sluice.testing.RedisSentinelExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Redis store through real sentinels: exact counts from two stores, a master found by name, a
 * failover followed without a restart, and a one-line error for a master no sentinel knows.
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

  private RedisCounterStore open(String masterName) {
    RedisEndpoint endpoint =
        RedisEndpoint.parse("redis-sentinel://" + sentinel.sentinelSeeds() + "/" + masterName);
    RedisCounterStore store =
        new RedisCounterStore(
                new RedisConfig(endpoint, TIMEOUT, 2, ""),
                Clock.systemUTC(),
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
  void failover_isFollowedWithoutRestart_andEveryCallAnswered() throws Exception {
    RedisCounterStore store = open(RedisSentinelExtension.MASTER_NAME);
    Hit hit =
        new Hit(
            "sentinel-failover-" + unique, Limit.of(1_000, Unit.DAY, Algorithm.FIXED_WINDOW), 1);
    assertThat(allowed(store, hit)).isTrue();
    int before = admittedWhile(store, hit, () -> {});
    var oldMaster = sentinel.master();
    int during = admittedWhile(store, hit, sentinel::failover);
    assertThat(sentinel.master()).isNotEqualTo(oldMaster);
    Eventually.await(
        Duration.ofSeconds(20),
        "the store to count on the new master",
        () -> {
          try {
            return store.acquire(List.of(hit)).get(2, TimeUnit.SECONDS).get(0).countAfter() > 0;
          } catch (Exception e) {
            return false;
          }
        });
    try (var master = sentinel.client(sentinel.master())) {
      long counted =
          master.keys("*sentinel-failover-" + unique + "*").stream()
              .mapToLong(key -> Long.parseLong(master.get(key)))
              .sum();
      // The new master counts on from its replicated copy. Writes the old master acknowledged
      // after the replica was promoted are lost (Redis replication is asynchronous), so this is
      // not an exactness check; it shows the counter survived and kept counting.
      assertThat(counted).isPositive();
      System.out.printf(
          "sentinel failover: admitted %d before, %d during; new master counts %d%n",
          1 + before, during, counted);
    }
  }

  /**
   * Sends hits from 4 threads while {@code action} runs on this one (and for 200 ms at least);
   * every call must be answered, by a usage or a store error, within the timeout and a margin.
   *
   * @return how many were admitted
   */
  private static int admittedWhile(RedisCounterStore store, Hit hit, Runnable action)
      throws Exception {
    java.util.concurrent.atomic.AtomicBoolean running =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    java.util.concurrent.atomic.AtomicInteger admitted =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger unanswered =
        new java.util.concurrent.atomic.AtomicInteger();
    List<Thread> senders = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Thread sender =
          new Thread(
              () -> {
                while (running.get()) {
                  try {
                    var usage =
                        store
                            .acquire(List.of(hit))
                            .get(TIMEOUT.toMillis() * 5, TimeUnit.MILLISECONDS);
                    if (!usage.get(0).overLimit()) {
                      admitted.incrementAndGet();
                    }
                  } catch (TimeoutException e) {
                    unanswered.incrementAndGet();
                  } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(StoreException.class);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              });
      senders.add(sender);
      sender.start();
    }
    long start = System.nanoTime();
    action.run();
    while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(200)) {
      Thread.onSpinWait();
    }
    running.set(false);
    for (Thread sender : senders) {
      sender.join();
    }
    assertThat(unanswered.get()).as("calls with no answer within 5 timeouts").isZero();
    return admitted.get();
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
