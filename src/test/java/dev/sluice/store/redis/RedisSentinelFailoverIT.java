package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisSentinelExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * Failover through real sentinels under 16 threads: {@code SENTINEL FAILOVER}, then a {@code kill
 * -9} of the master. Every call is answered within the answer time, the store moves to the new
 * master without a restart, and what the new master lacks (writes the old one acknowledged and
 * never replicated) is measured and bounds the over-admission. The kill runs last: it leaves one
 * data node.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisSentinelFailoverIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(1);

  /**
   * The store's answer time, enforced by {@link HitDispatch} ({@value HitDispatch#ANSWER_TIMEOUTS}
   * timeouts: a request's own round trip and the one ahead of it on its connection, which a
   * failover makes wait out the timeout), plus this test's scheduling on a loaded 2-core machine
   * (the timer's thread and the caller's waking up). Not a speed assertion: a call past it is one
   * the store failed to bound.
   */
  private static final Duration ANSWER_WITHIN =
      TIMEOUT.multipliedBy(HitDispatch.ANSWER_TIMEOUTS).plusMillis(500);

  private static final int THREADS = 16;
  private static final long LIMIT = 300;

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

  private RedisCounterStore open() {
    RedisEndpoint endpoint =
        RedisEndpoint.parse(
            "redis-sentinel://"
                + sentinel.sentinelSeeds()
                + "/"
                + RedisSentinelExtension.MASTER_NAME);
    RedisCounterStore store =
        new RedisCounterStore(
                RedisConfig.builder(endpoint)
                    .timeout(TIMEOUT)
                    .connections(2)
                    .keyPrefix("s:")
                    .build(),
                startClock,
                new DaemonThreadFactory("sluice-redis-lane"))
            .start();
    opened.add(store);
    return store;
  }

  @Test
  @Order(1)
  void sentinelFailover_underLoad_followed_lossBoundsOverAdmission() throws Exception {
    failover_underLoad("SENTINEL FAILOVER", sentinel::failover);
  }

  @Test
  @Order(2)
  void killedMaster_underLoad_followed_lossBoundsOverAdmission() throws Exception {
    failover_underLoad("kill -9 of the master", sentinel::killMaster);
  }

  /** Returns how many writes the new master lacks. */
  private long failover_underLoad(String change, Supplier<HostAndPort> failover) throws Exception {
    RedisCounterStore store = open();
    List<Hit> hits = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      hits.add(
          new Hit(
              "failover-" + i + "-" + unique,
              Limit.of(LIMIT, Unit.DAY, Algorithm.FIXED_WINDOW),
              1));
    }
    List<List<Hit>> requests = hits.stream().map(List::of).toList();
    HostAndPort before = sentinel.master();
    ClusterLoad load = new ClusterLoad(store, requests, ANSWER_WITHIN).start(THREADS);
    HostAndPort after;
    try {
      load.awaitEveryKeyAnswered();
      after = failover.get();
      awaitCountingOn(store, hits.get(0), after);
      load.settled();
      load.stopAfter(Duration.ofMillis(300));
    } finally {
      load.close();
    }
    assertThat(after).isNotEqualTo(before);
    long lostInAll = 0;
    long allowedInAll = 0;
    for (Hit hit : hits) {
      long answered = load.count(hit.key(), ClusterLoad.ANSWERED);
      long allowed = load.count(hit.key(), ClusterLoad.ALLOWED);
      long counted = counterOn(after, hit);
      long lost = Math.max(0, answered - counted);
      lostInAll += lost;
      allowedInAll += allowed;
      // Every answered call ran once, on the old master or the new; what the new one lacks was
      // acknowledged by the old one and never replicated. Over the limit by at most that much
      // (and a call per thread that failed after running and replicating).
      assertThat(allowed)
          .as("allowed of %s: %d answered, new master counts %d", hit.key(), answered, counted)
          .isLessThanOrEqualTo(LIMIT + lost + THREADS);
    }
    System.out.printf(
        "%s: %d calls answered, %d failed (failure mode), %d after the switch; slowest %s;"
            + " allowed %d over 8 keys (limit %d each); writes lost %d; %s%n",
        change,
        load.total(ClusterLoad.ANSWERED),
        load.total(ClusterLoad.FAILED_DURING),
        load.total(ClusterLoad.FAILED_AFTER),
        load.slowest(),
        allowedInAll,
        LIMIT,
        lostInAll,
        load.failures().stream().limit(3).toList());
    // Planned: the store stops writing at +selected-slave and never reconnects to the demoted
    // master, so only requests in flight can be lost (measured 0 and 39). Crash: the replication
    // lag at the kill (measured 0 to 5,646 of ~700,000 on a loaded 2-core machine). Before: up to
    // 395,989 of 410,168, written to the demoted master after the switch.
    assertThat(lostInAll)
        .as("writes the new master lacks, of %d answered", load.total(ClusterLoad.ANSWERED))
        .isLessThan(load.total(ClusterLoad.ANSWERED) / 20);
    assertThat(load.unanswered()).as("calls unanswered within %s", ANSWER_WITHIN).isZero();
    assertThat(load.unexpected()).as("failures other than StoreException").isZero();
    // A lane whose connection to the dead master had not broken yet fails its batch once after
    // the new master counts (measured: 0 or 2); at most one request per thread.
    assertThat(load.total(ClusterLoad.FAILED_AFTER))
        .as("failures once the new master counts: %s", load.failures())
        .isLessThanOrEqualTo(THREADS);
    return lostInAll;
  }

  /** Waits until a hit's counter grows on {@code master}: the store writes there now. */
  private static void awaitCountingOn(RedisCounterStore store, Hit hit, HostAndPort master) {
    long start = counterOn(master, hit);
    Eventually.await(
        Duration.ofSeconds(20),
        "the store to count on the new master " + master,
        () -> {
          try {
            store.inspect(hit).get(2, TimeUnit.SECONDS);
          } catch (Exception e) {
            return false;
          }
          return counterOn(master, hit) > start;
        });
  }

  private static long counterOn(HostAndPort node, Hit hit) {
    try (Jedis jedis = sentinel.client(node)) {
      return RedisProbe.scan(jedis, "s:" + hit.key() + "|*").stream()
          .mapToLong(key -> Long.parseLong(jedis.get(key)))
          .sum();
    }
  }
}
