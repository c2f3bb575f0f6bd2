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
import dev.sluice.store.StoreShedException;
import dev.sluice.store.Usage;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How the lanes fail and recover: a Redis that dies under load, restarts, or never answers fails
 * requests promptly with {@link StoreException}, never piles them up without bound, and {@code
 * close()} leaves no lane thread behind.
 */
class RedisLaneFailureIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final Duration TIMEOUT = Duration.ofMillis(500);

  /** Generous slack for a loaded CI machine; a hang would take far longer. */
  private static final Duration SLACK = Duration.ofSeconds(2);

  private static final String LANE_THREAD = "sluice-redis-lane-";
  private static final Limit DAILY = Limit.of(1_000_000, Unit.DAY, Algorithm.FIXED_WINDOW);

  private final String unique = UUID.randomUUID().toString();

  private static RedisCounterStore storeAt(URI url, int lanes) {
    return storeAt(url, lanes, TIMEOUT);
  }

  private static RedisCounterStore storeAt(URI url, int lanes, Duration timeout) {
    return new RedisCounterStore(
            RedisConfig.builder(RedisEndpoint.parse(url.toString()))
                .timeout(timeout)
                .connections(lanes)
                .keyPrefix("")
                .build(),
            Clock.systemUTC(),
            new DaemonThreadFactory("sluice-redis-lane"))
        .start();
  }

  private List<Hit> request() {
    return List.of(
        new Hit("fw|lane-" + unique, DAILY, 1),
        new Hit("tb|lane-" + unique, new Limit(1_000_000, Unit.DAY, Algorithm.TOKEN_BUCKET, 1), 0));
  }

  @Test
  void acquire_redisKilledUnderLoad_failsPromptlyRecoversAndLeavesNoThread() throws Exception {
    long threadsBefore = laneThreads();
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    AtomicInteger hung = new AtomicInteger();
    AtomicInteger unexpected = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> workers = new ArrayList<>();
    try (RedisCounterStore store = storeAt(redis.uri(), 2)) {
      for (int t = 0; t < 64; t++) {
        Thread worker =
            new Thread(
                () -> {
                  while (!stop.get()) {
                    try {
                      store
                          .acquire(request())
                          .get(TIMEOUT.plus(SLACK).toMillis(), TimeUnit.MILLISECONDS);
                      ok.incrementAndGet();
                    } catch (ExecutionException e) {
                      (e.getCause() instanceof StoreException ? failed : unexpected)
                          .incrementAndGet();
                    } catch (TimeoutException e) {
                      hung.incrementAndGet();
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                });
        worker.start();
        workers.add(worker);
      }
      awaitTrue(() -> ok.get() > 1000, "requests succeed under load");

      long stopped = System.nanoTime();
      redis.stop();
      try {
        awaitTrue(() -> failed.get() > 0, "requests fail once redis is gone");
        assertThat(Duration.ofNanos(System.nanoTime() - stopped)).isLessThan(TIMEOUT.plus(SLACK));
      } finally {
        redis.start();
      }
      int okBeforeRestart = ok.get();
      awaitTrue(() -> ok.get() > okBeforeRestart + 1000, "requests succeed after the restart");
      stop.set(true);
      for (Thread worker : workers) {
        worker.join(TIMEOUT.plus(SLACK).toMillis());
      }
    }
    assertThat(hung.get()).as("requests that outlived the timeout").isZero();
    assertThat(unexpected.get()).as("failures other than StoreException").isZero();
    assertThat(laneThreads()).as("lane threads after close").isEqualTo(threadsBefore);
  }

  @Test
  void acquire_afterRestart_failsAtMostOneRequestAcrossAllLanes() throws Exception {
    // A timeout no stall of a loaded machine reaches: only stale connections may fail requests.
    try (RedisCounterStore store = storeAt(redis.uri(), 4, Duration.ofSeconds(5))) {
      List<CompletableFuture<List<Usage>>> warm = submit(store, 2_000);
      warm.forEach(CompletableFuture::join); // every lane's connection has been used

      redis.stop();
      redis.start();

      List<CompletableFuture<List<Usage>>> after = new ArrayList<>();
      after.add(store.acquire(request()));
      after.get(0).handle((usages, failure) -> null).join();
      after.addAll(submit(store, 2_000));
      List<String> failures = new ArrayList<>();
      for (CompletableFuture<List<Usage>> future : after) {
        try {
          future.join();
        } catch (CompletionException e) {
          assertThat(e.getCause()).isInstanceOf(StoreException.class);
          failures.add(e.getCause().getMessage());
        }
      }
      assertThat(failures).as("failed requests after the restart").hasSizeLessThanOrEqualTo(1);
    }
  }

  @Test
  void acquire_moreThanALaneHolds_refusesTheExcessAtOnceAndFailsTheRestPromptly()
      throws IOException {
    int excess = 100;
    // Long enough to queue more than a lane holds while its one connect attempt waits.
    Duration timeout = Duration.ofSeconds(2);
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        RedisCounterStore store =
            storeAt(URI.create("redis://127.0.0.1:" + silent.getLocalPort()), 1, timeout)) {
      long start = System.nanoTime();
      List<CompletableFuture<List<Usage>>> futures =
          submit(store, RedisConfig.DEFAULT_MAX_QUEUED_HITS / request().size() + excess);

      assertThat(futures)
          .filteredOn(CompletableFuture::isCompletedExceptionally)
          .hasSize(excess)
          .allSatisfy(
              future ->
                  assertThatThrownBy(future::join)
                      .cause()
                      .isInstanceOf(StoreShedException.class)
                      .hasMessageContaining("shed: store queue full"));
      // One failed connect fails everything queued behind it, not one timeout per request.
      for (CompletableFuture<List<Usage>> future : futures) {
        assertThatThrownBy(future::join).cause().isInstanceOf(StoreException.class);
      }
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isLessThan(timeout.multipliedBy(2).plus(SLACK));
    }
  }

  @Test
  void close_withRequestsWaiting_failsThemAndEndsEveryLaneThread() throws IOException {
    long threadsBefore = laneThreads();
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      RedisCounterStore store =
          storeAt(URI.create("redis://127.0.0.1:" + silent.getLocalPort()), 3);
      assertThat(laneThreads()).isEqualTo(threadsBefore + 3);
      List<CompletableFuture<List<Usage>>> waiting = submit(store, 300);

      store.close();

      assertThat(laneThreads()).as("lane threads after close").isEqualTo(threadsBefore);
      for (CompletableFuture<List<Usage>> future : waiting) {
        assertThat(future).isCompletedExceptionally();
        assertThatThrownBy(future::join).cause().isInstanceOf(StoreException.class);
      }
      assertThatThrownBy(() -> store.acquire(request()).join())
          .cause()
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("closed");
    }
  }

  private List<CompletableFuture<List<Usage>>> submit(RedisCounterStore store, int requests) {
    List<CompletableFuture<List<Usage>>> futures = new ArrayList<>(requests);
    for (int i = 0; i < requests; i++) {
      futures.add(store.acquire(request()));
    }
    return futures;
  }

  private static long laneThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().startsWith(LANE_THREAD) && thread.isAlive())
        .count();
  }

  private static void awaitTrue(Eventually.Condition condition, String what) {
    Eventually.await(Duration.ofSeconds(20), what, condition);
  }
}
