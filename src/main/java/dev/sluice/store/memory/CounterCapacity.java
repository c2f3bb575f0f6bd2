package dev.sluice.store.memory;

import java.util.Comparator;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;
import java.util.function.ToLongFunction;

/**
 * The most counters the memory store keeps. Without it, a key-only rule over a long window keeps
 * every caller-chosen value until the window ends (1.5M values took 250 MB and an {@code -Xmx256m}
 * process to OutOfMemoryError). When the map grows past the maximum, expired counters go first,
 * then the counters that expire soonest (they would be forgotten first anyway), down to {@code 95%}
 * of the maximum so eviction runs once per many inserts, not on every one.
 *
 * <p>Thread-safe: one thread evicts at a time, others go on (the map may briefly exceed the maximum
 * by what they insert meanwhile). Removal is conditional, so a counter updated during eviction
 * keeps its new value only if it was not chosen.
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
  <V> void enforce(
      ConcurrentHashMap<String, V> counters, ToLongFunction<V> expiresAtMillis, long nowMillis) {
    if (counters.mappingCount() <= maxCounters || !evicting.compareAndSet(false, true)) {
      return;
    }
    try {
      counters.values().removeIf(counter -> expiresAtMillis.applyAsLong(counter) <= nowMillis);
      long excess = counters.mappingCount() - target;
      if (excess > 0) {
        evicted.accept(removeSoonestExpiring(counters, expiresAtMillis, excess));
      }
    } finally {
      evicting.set(false);
    }
  }

  /** Keeps the {@code count} soonest-expiring in a max-heap by expiry, then removes those. */
  private static <V> long removeSoonestExpiring(
      ConcurrentHashMap<String, V> counters, ToLongFunction<V> expiresAtMillis, long count) {
    Comparator<Map.Entry<String, V>> latestFirst =
        Comparator.comparingLong(
                (Map.Entry<String, V> entry) -> expiresAtMillis.applyAsLong(entry.getValue()))
            .reversed();
    int size = (int) Math.min(count, Integer.MAX_VALUE - 8);
    PriorityQueue<Map.Entry<String, V>> soonest = new PriorityQueue<>(size + 1, latestFirst);
    for (Map.Entry<String, V> entry : counters.entrySet()) {
      soonest.add(Map.entry(entry.getKey(), entry.getValue()));
      if (soonest.size() > size) {
        soonest.poll();
      }
    }
    long removed = 0;
    for (Map.Entry<String, V> entry : soonest) {
      if (counters.remove(entry.getKey(), entry.getValue())) {
        removed++;
      }
    }
    return removed;
  }
}
