package dev.sluice.store.memory;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

/**
 * The most counters the memory store keeps. Without it, a key-only rule over a long window keeps
 * every caller-chosen value until the window ends (1.5M values took 250 MB and an {@code -Xmx256m}
 * process to OutOfMemoryError). When the map grows past the maximum, expired counters go first,
 * then the counters that expire soonest (they would be forgotten first anyway), down to {@code 95%}
 * of the maximum so eviction runs once per many inserts, not on every one.
 *
 * <p>Thread-safe: one thread evicts at a time, others go on (the table may briefly exceed the
 * maximum by what they insert meanwhile). Removal happens under each stripe's lock and looks at the
 * counter's value then, so a counter updated during eviction is judged by its new expiry.
 */
final class CounterCapacity {
  private final long maxCounters;
  private final long target;
  private final LongConsumer evicted;
  private final AtomicBoolean evicting = new AtomicBoolean();

  /**
   * @param evicted told how many live counters each eviction removed (a metric)
   */
  CounterCapacity(long maxCounters, LongConsumer evicted) {
    if (maxCounters < 1) {
      throw new IllegalArgumentException("max counters must be >= 1: " + maxCounters);
    }
    this.maxCounters = maxCounters;
    this.target = Math.max(1, maxCounters - maxCounters / 20);
    this.evicted = evicted;
  }

  static CounterCapacity unbounded() {
    return new CounterCapacity(Long.MAX_VALUE, n -> {});
  }

  long maxCounters() {
    return maxCounters;
  }

  /** Evicts when {@code counters} holds more than the maximum; cheap when it does not. */
  void enforce(CounterTable counters, long nowMillis) {
    if (counters.size() <= maxCounters || !evicting.compareAndSet(false, true)) {
      return;
    }
    try {
      counters.removeIf(counter -> counter.expiresAtMillis() <= nowMillis);
      long excess = counters.size() - target;
      if (excess > 0) {
        evicted.accept(removeSoonestExpiring(counters, excess));
      }
    } finally {
      evicting.set(false);
    }
  }

  /**
   * Removes about {@code count} counters, those expiring soonest: every counter expiring before the
   * {@code count}-th smallest expiry, then as many expiring at it as make up {@code count}. A
   * counter written meanwhile is judged by its new expiry (each stripe is read under its lock).
   */
  private static long removeSoonestExpiring(CounterTable counters, long count) {
    long[] expiries = counters.expiries();
    if (expiries.length == 0) {
      return 0;
    }
    Arrays.sort(expiries);
    long threshold = expiries[(int) Math.min(count, expiries.length) - 1];
    long below = 0;
    while (below < expiries.length && expiries[(int) below] < threshold) {
      below++;
    }
    long[] atThreshold = {Math.min(count, expiries.length) - below};
    return counters.removeIf(
        counter -> {
          long expires = counter.expiresAtMillis();
          if (expires < threshold) {
            return true;
          }
          if (expires == threshold && atThreshold[0] > 0) {
            atThreshold[0]--;
            return true;
          }
          return false;
        });
  }
}
