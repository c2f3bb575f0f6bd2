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
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.threads.DaemonThreadFactory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Issue 11.12: the breaker opens on a store that is down, not on one that is slow now and then.
 * Redis is made to stall for 30 ms every 150 ms (a busy script on another connection, as a busy
 * machine would), so with a 20 ms timeout every stall fails the calls in flight, several in a row,
 * which opened the old breaker (5 consecutive failures). Then Redis is stopped: connections are
 * refused and the breaker opens at once. The window runs on a fake clock that stands still, so
 * every call of the test is in it.
 */
class BreakerHealthIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final int THREADS = 4;
  private static final Limit LIMIT = Limit.of(1_000_000, Unit.HOUR, Algorithm.FIXED_WINDOW);

  /** Holds Redis for about 30 ms. */
  private static final String STALL =
      "local t = redis.call('TIME') local s = t[1] * 1000000 + t[2] repeat t = redis.call('TIME')"
          + " until t[1] * 1000000 + t[2] - s > 30000 return 1";

  @Test
  void slowButHealthyRedis_keepsTheBreakerClosed_deadRedisOpensIt() throws Exception {
    RedisCounterStore backend =
        new RedisCounterStore(
                RedisConfig.builder(redis.endpoint())
                    .timeout(Duration.ofMillis(20))
                    .connections(2)
                    .keyPrefix("health:")
                    .build(),
                Clock.systemUTC(),
                new DaemonThreadFactory("sluice-redis-lane"))
            .start();
    try (GuardedStore store =
        new GuardedStore(
            backend,
            BreakerConfig.defaults(),
            new SluiceMetrics(new PrometheusRegistry()),
            FakeClock.atEpochSecond(1_700_000_000L))) {
      AtomicInteger ok = new AtomicInteger();
      AtomicInteger failed = new AtomicInteger();
      AtomicInteger longestRun = new AtomicInteger();
      // Some history first, as a running service has: the window then holds good calls too.
      for (int i = 0; i < 100; i++) {
        assertThat(succeeded(store, new Hit("fw|3600|health|warm-" + i, LIMIT, 1))).isTrue();
      }
      AtomicBoolean running = new AtomicBoolean(true);
      Thread staller = new Thread(() -> stallEvery150ms(running), "stall-redis");
      staller.start();
      List<Thread> callers = new ArrayList<>();
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
      for (int t = 0; t < THREADS; t++) {
        int caller = t;
        Thread thread =
            new Thread(
                () -> {
                  int run = 0;
                  for (int i = 0; System.nanoTime() < end; i++) {
                    Hit hit = new Hit("fw|3600|health|k=" + caller + "-" + i, LIMIT, 1);
                    if (succeeded(store, hit)) {
                      ok.incrementAndGet();
                      run = 0;
                    } else {
                      failed.incrementAndGet();
                      longestRun.accumulateAndGet(++run, Math::max);
                    }
                  }
                },
                "caller-" + t);
        thread.start();
        callers.add(thread);
      }
      for (Thread thread : callers) {
        thread.join();
      }
      running.set(false);
      staller.join();

      assertThat(failed.get()).as("calls failed by the stalls, of %d", ok.get()).isPositive();
      // At least the old breaker's 5, in runs (4 callers, each failing in a row per stall).
      assertThat(failed.get())
          .as("failed calls (longest run per caller %d)", longestRun.get())
          .isGreaterThanOrEqualTo(5);
      assertThat(store.state()).as("%d ok, %d failed", ok.get(), failed.get()).isEqualTo("closed");

      redis.stop();
      try {
        for (int i = 0; i < 5 && store.state().equals("closed"); i++) {
          succeeded(store, new Hit("fw|3600|health|dead", LIMIT, 1));
        }
        assertThat(store.state())
            .as("after a few refused connections: %s", store.lastError())
            .isEqualTo("open");
        assertThat(store.lastError()).contains("cannot connect");
      } finally {
        redis.start();
      }
    }
  }

  private static boolean succeeded(GuardedStore store, Hit hit) {
    return store.acquire(List.of(hit)).handle((usages, failure) -> failure == null).join();
  }

  private static void stallEvery150ms(AtomicBoolean running) {
    try (Jedis jedis = redis.client()) {
      while (running.get()) {
        jedis.eval(STALL);
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(120));
      }
    }
  }
}
