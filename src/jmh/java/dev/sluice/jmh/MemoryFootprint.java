package dev.sluice.jmh;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.CounterKey;
import dev.sluice.store.Hit;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.threads.Scheduler;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Clock;
import java.util.List;
import java.util.Locale;

/**
 * Heap bytes per active counter of the memory store: fills an {@link InMemoryCounterStore} with N
 * distinct keys through its real {@code acquire} path (one hit per request, as a descriptor with
 * one limit charges), forces GC, and divides the used heap over the empty store's by N. The keys
 * are what {@link CounterKey} builds for {@code user=user-<7 digits>} in domain {@code bench}, so
 * the figure includes a realistic key (about 30 Latin-1 characters). Hour windows, so nothing
 * expires while filling; the store's bound is N, so nothing is evicted either.
 *
 * <p>Not JMH: one number, one algorithm per JVM (a second store in the same JVM measured against a
 * baseline that still held some of the first's garbage). Run with a fixed heap and Serial GC so a
 * full GC compacts: {@code java -Xms1g -Xmx1g -XX:+UseSerialGC -cp target/benchmarks.jar
 * dev.sluice.jmh.MemoryFootprint [counters] [fixed_window|token_bucket|sliding_window]}. Prints
 * {@code algorithm counters heapMB bytesPerCounter keyLength}.
 */
public final class MemoryFootprint {
  /** The sweep never runs here: the windows are an hour long and the run takes seconds. */
  private static final Scheduler NO_SWEEP =
      new Scheduler() {
        @Override
        public Cancellable scheduleWithFixedDelay(
            Runnable task, java.time.Duration initialDelay, java.time.Duration delay) {
          return () -> {};
        }

        @Override
        public void execute(Runnable task) {}
      };

  private MemoryFootprint() {}

  public static void main(String[] args) {
    int counters = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    Algorithm algorithm =
        Algorithm.valueOf(args.length > 1 ? args[1].toUpperCase(Locale.ROOT) : "FIXED_WINDOW");
    // Loads and initialises the acquire path, so the baseline below holds its static state.
    fill(algorithm, 1_000).close();
    long empty = usedAfterGc();
    InMemoryCounterStore store = fill(algorithm, counters);
    long full = usedAfterGc();
    if (store.size() != counters) {
      throw new IllegalStateException("store holds " + store.size() + ", not " + counters);
    }
    System.out.printf(
        Locale.ROOT,
        "%s %d %.1f %.1f %d%n",
        algorithm.name().toLowerCase(Locale.ROOT),
        counters,
        (full - empty) / 1e6,
        (full - empty) / (double) counters,
        key(0, limit(algorithm)).length());
    store.close();
  }

  private static Limit limit(Algorithm algorithm) {
    return Limit.of(1_000_000, Unit.HOUR, algorithm);
  }

  private static InMemoryCounterStore fill(Algorithm algorithm, int counters) {
    Limit limit = limit(algorithm);
    InMemoryCounterStore store =
        new InMemoryCounterStore(Clock.systemUTC(), NO_SWEEP, counters, evicted -> {});
    for (int i = 0; i < counters; i++) {
      store.acquire(List.of(new Hit(key(i, limit), limit, 1))).join();
    }
    return store;
  }

  private static String key(int i, Limit limit) {
    String user = String.format(Locale.ROOT, "user-%07d", i);
    return CounterKey.of("bench", List.of(new Entry("user", user)), limit);
  }

  /** Used heap once repeated full collections stop shrinking it. */
  private static long usedAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int round = 0; round < 10; round++) {
      System.gc();
      long now = memory.getHeapMemoryUsage().getUsed();
      if (now >= used) {
        return now;
      }
      used = now;
    }
    return used;
  }
}
