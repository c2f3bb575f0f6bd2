package dev.sluice.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Space-Saving heavy-hitters sketch (Metwally, Agrawal, El Abbadi 2005): at most {@code
 * capacity} counters, so memory is fixed however many distinct keys arrive. A key seen more than
 * {@code total / capacity} times is guaranteed to be held, and each held count overestimates the
 * true one by at most its {@code error}.
 *
 * <p>Thread-safe: every method holds the sketch's monitor, which guards the map. Eviction scans for
 * the minimum, O(capacity), which at the small capacities used here costs less than keeping a
 * sorted structure on every increment.
 */
public final class SpaceSaving<K> {
  /** One held key: its estimated count and the most that estimate may exceed the truth by. */
  public record Counted<K>(K key, long count, long error) {}

  private static final class Slot {
    long count;
    long error;
  }

  private final int capacity;
  private final Map<K, Slot> slots;

  public SpaceSaving(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1: " + capacity);
    }
    this.capacity = capacity;
    this.slots = new HashMap<>(capacity * 2);
  }

  public synchronized void add(K key, long count) {
    Slot slot = slots.get(key);
    if (slot == null) {
      if (slots.size() < capacity) {
        slot = new Slot();
      } else {
        Map.Entry<K, Slot> min = minimum();
        slots.remove(min.getKey());
        slot = min.getValue();
        slot.error = slot.count;
      }
      slots.put(key, slot);
    }
    slot.count += count;
  }

  private Map.Entry<K, Slot> minimum() {
    Map.Entry<K, Slot> min = null;
    for (Map.Entry<K, Slot> entry : slots.entrySet()) {
      if (min == null || entry.getValue().count < min.getValue().count) {
        min = entry;
      }
    }
    return min;
  }

  /** Every held key, highest count first. */
  public synchronized List<Counted<K>> all() {
    List<Counted<K>> held = new ArrayList<>(slots.size());
    slots.forEach((key, slot) -> held.add(new Counted<>(key, slot.count, slot.error)));
    held.sort(Comparator.comparingLong((Counted<K> c) -> c.count()).reversed());
    return held;
  }

  public synchronized int size() {
    return slots.size();
  }
}
