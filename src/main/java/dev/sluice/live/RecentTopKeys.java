package dev.sluice.live;

import dev.sluice.metrics.SpaceSaving;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys refused most "now": two Space-Saving sketches, one per minute, so a key that stopped
 * being refused drops out within two minutes instead of staying on top forever. Memory is two fixed
 * sketches.
 *
 * <p>Thread-safe: the monitor guards which sketch is current; each sketch guards itself.
 */
final class RecentTopKeys<K> {
  static final long GENERATION_SECONDS = 60;

  private final int capacity;
  private long generation = Long.MIN_VALUE;
  private SpaceSaving<K> current;
  private SpaceSaving<K> previous;

  RecentTopKeys(int capacity) {
    this.capacity = capacity;
    this.current = new SpaceSaving<>(capacity);
    this.previous = new SpaceSaving<>(capacity);
  }

  void add(long epochSecond, K key, long count) {
    sketchAt(epochSecond).add(key, count);
  }

  /** The {@code limit} keys with the highest counts over this minute and the one before. */
  List<SpaceSaving.Counted<K>> top(long epochSecond, int limit) {
    SpaceSaving<K> now;
    SpaceSaving<K> before;
    synchronized (this) {
      now = sketchAt(epochSecond);
      before = previous;
    }
    Map<K, long[]> merged = new HashMap<>();
    for (SpaceSaving<K> sketch : List.of(before, now)) {
      for (SpaceSaving.Counted<K> counted : sketch.all()) {
        long[] sum = merged.computeIfAbsent(counted.key(), k -> new long[2]);
        sum[0] += counted.count();
        sum[1] += counted.error();
      }
    }
    List<SpaceSaving.Counted<K>> top = new ArrayList<>(merged.size());
    merged.forEach((key, sum) -> top.add(new SpaceSaving.Counted<>(key, sum[0], sum[1])));
    top.sort((a, b) -> Long.compare(b.count(), a.count()));
    return top.subList(0, Math.min(limit, top.size()));
  }

  private synchronized SpaceSaving<K> sketchAt(long epochSecond) {
    long now = Math.floorDiv(epochSecond, GENERATION_SECONDS);
    if (now != generation) {
      previous = now == generation + 1 ? current : new SpaceSaving<>(capacity);
      current = new SpaceSaving<>(capacity);
      generation = now;
    }
    return current;
  }
}
