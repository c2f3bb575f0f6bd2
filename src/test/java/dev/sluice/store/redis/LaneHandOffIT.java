package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RedisConfig;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hand-off between callers and a lane's writer: a lock-free queue, the writer parking when it
 * finds it empty and a submit unparking it, and each answer completing the caller's future directly
 * on the writer thread. Bursts of callers released together, with the queue running dry between
 * bursts, make the writer park and wake many times; a lost wake-up leaves a burst unanswered (the
 * join below then times out), and a request answered twice or not counted shows in the exact
 * counts.
 */
class LaneHandOffIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final int THREADS = 16;
  private static final int BURSTS = 300;
  private static final Limit HOURLY = Limit.of(1_000, Unit.HOUR, Algorithm.FIXED_WINDOW);
  private static final Limit DAILY_BUCKET =
      new Limit(1_000, Unit.DAY, Algorithm.TOKEN_BUCKET, 1_000);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_002_800L);
  private final String unique = UUID.randomUUID().toString();
  private RedisCounterStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  @Test
  void acquire_burstsOfCallersOnOneLane_answersEveryRequestOnceAndCountsExactly() throws Exception {
    store =
        new RedisCounterStore(
                RedisConfig.builder(redis.endpoint())
                    .timeout(Duration.ofSeconds(2))
                    .connections(1)
                    .keyPrefix("")
                    .build(),
                clock,
                new DaemonThreadFactory("sluice-redis-lane"))
            .start();
    Hit window = new Hit("handoff-fw-" + unique, HOURLY, 1);
    Hit bucket = new Hit("handoff-tb-" + unique, DAILY_BUCKET, 1);
    AtomicInteger answered = new AtomicInteger();
    AtomicInteger windowAllowed = new AtomicInteger();
    AtomicInteger bucketAllowed = new AtomicInteger();
    AtomicInteger lastWindowCount = new AtomicInteger();
    CyclicBarrier burst = new CyclicBarrier(THREADS);
    List<CompletableFuture<Void>> callers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Hit mine = t % 2 == 0 ? window : bucket;
      AtomicInteger allowed = t % 2 == 0 ? windowAllowed : bucketAllowed;
      callers.add(
          CompletableFuture.runAsync(
              () -> {
                for (int b = 0; b < BURSTS; b++) {
                  await(burst);
                  Usage usage =
                      store.acquire(List.of(mine)).orTimeout(30, TimeUnit.SECONDS).join().get(0);
                  answered.incrementAndGet();
                  if (!usage.overLimit()) {
                    allowed.incrementAndGet();
                  }
                  if (mine == window) {
                    lastWindowCount.accumulateAndGet((int) usage.countAfter(), Math::max);
                  }
                }
              },
              runnable -> new Thread(runnable).start()));
    }
    CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);

    int requests = THREADS * BURSTS;
    assertThat(answered.get()).isEqualTo(requests);
    assertThat(requests / 2).isGreaterThan((int) HOURLY.capacity());
    assertThat(windowAllowed.get()).isEqualTo(HOURLY.capacity());
    assertThat(bucketAllowed.get()).isEqualTo(DAILY_BUCKET.capacity());
    assertThat(lastWindowCount.get()).as("every window hit counted once").isEqualTo(requests / 2);
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("a burst did not gather", e);
    }
  }
}
