package dev.sluice.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/**
 * The concurrency harness of the exact-limit tests: threads released together by one latch, each
 * making the same number of attempts, counting the attempts that were allowed. The real stores and
 * the deliberately racy counter-example run through this same code.
 */
public final class Hammer {
  private Hammer() {}

  /**
   * @param attemptFor gives thread {@code t} its attempt: true when a hit was allowed
   * @return how many attempts, over all threads, were allowed
   */
  public static int countAllowed(
      int threads, int attemptsPerThread, IntFunction<BooleanSupplier> attemptFor)
      throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger allowed = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        BooleanSupplier attempt = attemptFor.apply(t);
        Callable<Void> worker =
            () -> {
              start.await();
              for (int i = 0; i < attemptsPerThread; i++) {
                if (attempt.getAsBoolean()) {
                  allowed.incrementAndGet();
                }
              }
              return null;
            };
        futures.add(pool.submit(worker));
      }
      start.countDown();
      for (Future<?> future : futures) {
        future.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    return allowed.get();
  }

  /**
   * Runs {@code action} {@code attemptsPerThread} times on each of {@code threads}, released
   * together.
   */
  public static void run(int threads, int attemptsPerThread, Runnable action) throws Exception {
    countAllowed(
        threads,
        attemptsPerThread,
        t ->
            () -> {
              action.run();
              return true;
            });
  }
}
