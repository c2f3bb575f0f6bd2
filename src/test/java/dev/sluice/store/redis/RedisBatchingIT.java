package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RedisConfig;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.FixedWindow;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.Hammer;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientPauseMode;

/**
 * Under load the store shares round trips between requests: one pipeline carries whatever queued
 * while the previous one was in flight. Round trips are counted by the server ({@code
 * total_reads_processed}), commands by {@code INFO commandstats}, as in {@link RedisPipelineIT}.
 */
class RedisBatchingIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final int THREADS = 64;
  private static final int REQUESTS_PER_THREAD = 50;
  private static final Limit HOURLY = Limit.of(1000, Unit.HOUR, Algorithm.FIXED_WINDOW);
  private static final Limit DAILY_BUCKET = new Limit(1000, Unit.DAY, Algorithm.TOKEN_BUCKET, 1000);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_002_800L);
  private final String unique = UUID.randomUUID().toString();
  private final List<RedisCounterStore> opened = new ArrayList<>();
  private final Jedis admin = redis.client();

  @AfterEach
  void close() {
    opened.forEach(RedisCounterStore::close);
    admin.close();
  }

  private RedisCounterStore open(int lanes) {
    RedisCounterStore store =
        new RedisCounterStore(
                RedisConfig.builder(redis.endpoint())
                    .timeout(Duration.ofSeconds(2))
                    .connections(lanes)
                    .keyPrefix("")
                    .build(),
                clock,
                new DaemonThreadFactory("sluice-redis-lane"))
            .start();
    opened.add(store);
    return store;
  }

  private String key(String name) {
    return name + "-" + unique;
  }

  @Test
  void acquire_64ThreadsOnTwoLanes_shareRoundTripsAndAllowExactlyTheLimit() throws Exception {
    RedisCounterStore store = open(2);
    List<Hit> request =
        List.of(new Hit(key("shared-fw"), HOURLY, 1), new Hit(key("shared-tb"), DAILY_BUCKET, 1));
    int requests = THREADS * REQUESTS_PER_THREAD;
    AtomicInteger windowAllowed = new AtomicInteger();
    AtomicInteger bucketAllowed = new AtomicInteger();
    RedisProbe.Snapshot first = RedisProbe.snapshot(admin);
    RedisProbe.Snapshot before = RedisProbe.snapshot(admin);

    Hammer.run(
        THREADS,
        REQUESTS_PER_THREAD,
        () -> {
          List<Usage> usages = store.acquire(request).join();
          windowAllowed.addAndGet(usages.get(0).overLimit() ? 0 : 1);
          bucketAllowed.addAndGet(usages.get(1).overLimit() ? 0 : 1);
        });

    RedisProbe.Snapshot after = RedisProbe.snapshot(admin);
    assertThat(requests).isGreaterThan((int) HOURLY.capacity());
    assertThat(windowAllowed.get()).isEqualTo(HOURLY.capacity());
    assertThat(bucketAllowed.get()).isEqualTo(DAILY_BUCKET.capacity());
    long index = FixedWindow.index(clock.millis(), Unit.HOUR.millis());
    String window = key("shared-fw") + "|" + index;
    assertThat(admin.get(window))
        .as("every hit counted once")
        .isEqualTo(Integer.toString(requests));
    assertThat(admin.pttl(window)).as("the window expires").isPositive();
    assertThat(admin.pttl(key("shared-tb") + "|s")).as("the bucket expires").isPositive();
    long readsPerInfo = before.reads() - first.reads();
    long roundTrips = after.reads() - before.reads() - readsPerInfo;
    assertThat(roundTrips).as("round trips for %d requests", requests).isLessThan(requests / 4);
  }

  @Test
  void acquire_loneRequestAfterABurst_isStillOneRoundTrip() throws Exception {
    RedisCounterStore store = open(2);
    Hammer.run(
        THREADS,
        REQUESTS_PER_THREAD,
        () -> store.acquire(List.of(new Hit(key("burst"), HOURLY, 1))).join());
    List<Hit> lone =
        List.of(
            new Hit(key("lone-a"), HOURLY, 1),
            new Hit(key("lone-b"), HOURLY, 1),
            new Hit(key("lone-tb"), DAILY_BUCKET, 1));

    RedisProbe.Snapshot first = RedisProbe.snapshot(admin);
    RedisProbe.Snapshot before = RedisProbe.snapshot(admin);
    List<Usage> usages = store.acquire(lone).join();
    RedisProbe.Snapshot after = RedisProbe.snapshot(admin);

    long readsPerInfo = before.reads() - first.reads();
    assertThat(after.reads() - before.reads() - readsPerInfo).as("round trips").isEqualTo(1);
    assertThat(usages).extracting(Usage::remaining).containsExactly(999L, 999L, 999L);
  }

  @Test
  void acquire_noScriptInAPipelineSharedByManyRequests_reEvaluatesOnlyThatEntry() {
    RedisCounterStore store = open(1);
    admin.scriptFlush();
    RedisProbe.Snapshot before = RedisProbe.snapshot(admin);
    // Redis holds the lane's first pipeline for a while; everything after it queues up behind it
    // and goes out together in the next one, the token-bucket request among the counters.
    admin.clientPause(300, ClientPauseMode.ALL);
    List<Hit> windows = new ArrayList<>();
    List<CompletableFuture<List<Usage>>> counted = new ArrayList<>();
    CompletableFuture<List<Usage>> taken = null;
    for (int i = 0; i < 20; i++) {
      Hit window = new Hit(key("noscript-fw-" + i), HOURLY, 1);
      windows.add(window);
      counted.add(store.acquire(List.of(window)));
      if (i == 10) {
        taken = store.acquire(List.of(new Hit(key("noscript-tb"), DAILY_BUCKET, 2)));
      }
    }

    assertThat(taken.join().get(0).remaining()).isEqualTo(998);
    assertThat(counted).extracting(f -> f.join().get(0).countAfter()).containsOnly(1L);
    RedisProbe.Snapshot after = RedisProbe.snapshot(admin);
    // Only the bucket is a script: it got NOSCRIPT and was re-sent alone, once; the windows
    // around it in the same pipeline were counted once each (re-sending the pipeline would count
    // them twice).
    assertThat(before.callsUntil(after, "eval")).isEqualTo(1);
    long index = FixedWindow.index(clock.millis(), Unit.HOUR.millis());
    for (Hit window : windows) {
      assertThat(admin.get(window.key() + "|" + index)).as(window.key()).isEqualTo("1");
      assertThat(admin.pttl(window.key() + "|" + index)).as(window.key()).isPositive();
    }
  }

  @Test
  void acquire_requestAboveTheBatchCap_goesWholeAndCountsInOrder() {
    RedisCounterStore store = open(1);
    Hit hit = new Hit(key("large"), Limit.of(700, Unit.HOUR, Algorithm.FIXED_WINDOW), 1);
    List<Hit> large = Collections.nCopies(PipelineLane.MAX_BATCH_HITS + 100, hit);
    List<Usage> usages = store.acquire(large).join();
    assertThat(usages).extracting(Usage::countAfter).startsWith(1L, 2L).endsWith(611L, 612L);
    assertThat(usages).extracting(Usage::overLimit).containsOnly(false);
  }
}
