package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreDataException;
import dev.sluice.store.Usage;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.Hammer;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.StallingProxy;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * On one node a lane sends the token-bucket (and sliding-window) hits of a whole batch as one
 * script call per script ({@link CoalescedScript}): as exact as one call per hit under contention,
 * one caller's bad key fails only that caller, and a lost script costs one EVAL of the combined
 * call. Batches are made deterministic with a {@link StallingProxy}: the lane's first pipeline is
 * held while the test queues the next batch behind it, so everything queued goes out together once
 * it is released. Script calls are counted by the server ({@code INFO commandstats}).
 */
class ScriptCoalescingIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final int THREADS = 32;
  private static final int REQUESTS_PER_THREAD = 50;
  private static final long CAPACITY = 300;
  private static final Limit NO_REFILL = new Limit(1, Unit.DAY, Algorithm.TOKEN_BUCKET, CAPACITY);
  private static final Limit HOURLY = Limit.of(10, Unit.HOUR, Algorithm.FIXED_WINDOW);
  private static final Limit BUCKET = new Limit(10, Unit.DAY, Algorithm.TOKEN_BUCKET, 5);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_002_800L);
  private final String unique = UUID.randomUUID().toString();
  private final Jedis admin = redis.client();
  private final StallingProxy proxy = StallingProxy.to(redis.host(), redis.port());
  private final List<RedisCounterStore> opened = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    proxy.resume();
    opened.forEach(RedisCounterStore::close);
    proxy.close();
    admin.close();
  }

  private RedisCounterStore open(RedisEndpoint endpoint, int lanes) {
    RedisCounterStore store =
        new RedisCounterStore(
                RedisConfig.builder(endpoint)
                    .timeout(Duration.ofSeconds(5))
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
  void acquire_manyThreadsOnOneBucket_allowExactlyItsCapacityInFewerScriptCallsThanHits()
      throws Exception {
    RedisCounterStore store = open(redis.endpoint(), 2);
    Hit hit = new Hit(key("contended"), NO_REFILL, 1);
    AtomicInteger allowed = new AtomicInteger();
    RedisProbe.Snapshot before = RedisProbe.snapshot(admin);

    Hammer.run(
        THREADS,
        REQUESTS_PER_THREAD,
        () -> allowed.addAndGet(store.acquire(List.of(hit)).join().get(0).overLimit() ? 0 : 1));

    RedisProbe.Snapshot after = RedisProbe.snapshot(admin);
    int decisions = THREADS * REQUESTS_PER_THREAD;
    assertThat(allowed.get()).as("allowed of %d", decisions).isEqualTo(CAPACITY);
    assertThat(admin.pttl(hit.key() + "|s")).as("the bucket expires").isPositive();
    long scriptCalls = before.callsUntil(after, "evalsha") + before.callsUntil(after, "eval");
    assertThat(scriptCalls).as("script calls for %d decisions", decisions).isLessThan(decisions);
  }

  @Test
  void acquire_aKeyHoldingAHashInTheSameCall_failsOnlyThatCaller() {
    RedisCounterStore store = open(proxiedEndpoint(), 1);
    Hit poisoned = new Hit(key("hash"), BUCKET, 1);
    admin.hset(poisoned.key() + "|s", Map.of("tokens", "1"));
    Hit before = new Hit(key("before"), BUCKET, 2);
    Hit after = new Hit(key("after"), BUCKET, 3);
    RedisProbe.Snapshot start = RedisProbe.snapshot(admin);

    List<CompletableFuture<List<Usage>>> batch =
        behindAStall(store, List.of(List.of(before), List.of(poisoned), List.of(after, before)));

    assertThat(batch.get(0).join()).extracting(Usage::remaining).containsExactly(3L);
    assertThat(batch.get(2).join()).extracting(Usage::remaining).containsExactly(2L, 1L);
    assertThat(batch.get(1))
        .failsWithin(Duration.ofSeconds(10))
        .withThrowableOfType(Exception.class)
        .satisfies(e -> assertThat(e.getCause()).isInstanceOf(StoreDataException.class));
    assertThat(admin.hgetAll(poisoned.key() + "|s")).isEqualTo(Map.of("tokens", "1"));
    RedisProbe.Snapshot end = RedisProbe.snapshot(admin);
    assertThat(start.callsUntil(end, "evalsha")).as("one script call for the batch").isEqualTo(1);
  }

  @Test
  void acquire_scriptFlushedBetweenBatches_reEvaluatesTheCombinedCallOnce() {
    RedisCounterStore store = open(proxiedEndpoint(), 1);
    Hit bucket = new Hit(key("flushed"), BUCKET, 1);
    Hit other = new Hit(key("flushed-other"), BUCKET, 2);
    behindAStall(store, List.of(List.of(bucket), List.of(other))).forEach(CompletableFuture::join);
    admin.scriptFlush();
    RedisProbe.Snapshot start = RedisProbe.snapshot(admin);

    List<CompletableFuture<List<Usage>>> batch =
        behindAStall(store, List.of(List.of(bucket), List.of(other), List.of(bucket)));

    assertThat(batch)
        .extracting(f -> f.join().get(0).remaining())
        .as("each take sees the one before it")
        .containsExactly(3L, 1L, 2L);
    RedisProbe.Snapshot end = RedisProbe.snapshot(admin);
    assertThat(start.callsUntil(end, "eval")).as("the combined call, once").isEqualTo(1);
    String stored = admin.get(other.key() + "|s");
    assertThat(Math.floor(Double.parseDouble(stored.split(" ")[0])))
        .as("taken once: 5 - 2 - 2, in %s", stored)
        .isEqualTo(1.0);

    List<CompletableFuture<List<Usage>>> next = behindAStall(store, List.of(List.of(bucket)));
    assertThat(next.get(0).join().get(0).remaining()).isEqualTo(1);
    assertThat(end.callsUntil(RedisProbe.snapshot(admin), "eval")).as("cached again").isZero();
  }

  @Test
  void acquire_slidingWindowHitsOfOneBatch_areOneScriptCallExactAndIsolated() {
    RedisCounterStore store = open(proxiedEndpoint(), 1);
    Limit limit = Limit.of(3, Unit.HOUR, Algorithm.SLIDING_WINDOW);
    Hit counted = new Hit(key("sw"), limit, 1);
    Hit poisoned = new Hit(key("sw-string"), limit, 1);
    admin.set(poisoned.key(), "not a hash");
    RedisProbe.Snapshot start = RedisProbe.snapshot(admin);

    List<CompletableFuture<List<Usage>>> batch =
        behindAStall(
            store,
            List.of(
                List.of(counted),
                List.of(poisoned),
                List.of(counted),
                List.of(counted),
                List.of(counted)));

    assertThat(List.of(batch.get(0), batch.get(2), batch.get(3), batch.get(4)))
        .extracting(f -> f.join().get(0))
        .extracting(Usage::overLimit, Usage::remaining)
        .containsExactly(tuple(false, 2L), tuple(false, 1L), tuple(false, 0L), tuple(true, 0L));
    assertThat(batch.get(1))
        .failsWithin(Duration.ofSeconds(10))
        .withThrowableOfType(Exception.class)
        .satisfies(e -> assertThat(e.getCause()).isInstanceOf(StoreDataException.class));
    assertThat(admin.get(poisoned.key())).isEqualTo("not a hash");
    RedisProbe.Snapshot end = RedisProbe.snapshot(admin);
    assertThat(start.callsUntil(end, "evalsha")).as("one script call for the batch").isEqualTo(1);
  }

  private RedisEndpoint proxiedEndpoint() {
    return RedisEndpoint.parse("redis://" + redis.host() + ":" + proxy.port());
  }

  /**
   * Sends a fixed-window hit and holds its pipeline in the proxy, queues {@code requests} behind it
   * on the store's one lane, then lets everything through: the requests go as one batch.
   */
  private List<CompletableFuture<List<Usage>>> behindAStall(
      RedisCounterStore store, List<List<Hit>> requests) {
    proxy.stall();
    CompletableFuture<List<Usage>> held =
        store.acquire(List.of(new Hit(key("held-" + UUID.randomUUID()), HOURLY, 1)));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (proxy.heldBytes() == 0) {
      assertThat(System.nanoTime() - deadline)
          .as("the first pipeline reached the proxy")
          .isNegative();
      Thread.onSpinWait();
    }
    List<CompletableFuture<List<Usage>>> batch = new ArrayList<>();
    for (List<Hit> request : requests) {
      batch.add(store.acquire(request));
    }
    proxy.resume();
    held.join();
    return batch;
  }
}
