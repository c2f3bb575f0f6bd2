package dev.sluice.store.memory;

import dev.sluice.store.algorithm.MemoryCounter;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The memory store's counters by key: {@value #STRIPES} stripes, each an open-addressing table
 * (linear probing, two parallel arrays) guarded by its own lock. A {@link
 * java.util.concurrent.ConcurrentHashMap} spent 40 of its ~150 bytes per counter on its node and
 * table slot; here a counter costs its key, its value and about 12–16 bytes of slots (issue 16 part
 * 4 measures it with {@code MemoryFootprint}). The store already held a stripe lock around every
 * write, so the map's own concurrency was paid for twice.
 *
 * <p>Every method that takes a stripe index must be called with that stripe's lock held ({@link
 * #lock}); {@link #removeIf} and {@link #clear} take the locks themselves. {@link #size} is exact
 * when no write runs concurrently.
 */
final class CounterTable {
  /** A power of two: the low bits of a key's spread hash choose the stripe. */
  static final int STRIPES = 1024;

  private static final int STRIPE_BITS = Integer.numberOfTrailingZeros(STRIPES);
  private static final int INITIAL_SLOTS = 4;

  private final Stripe[] stripes = new Stripe[STRIPES];
  private final LongAdder size = new LongAdder();

  CounterTable() {
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new Stripe();
    }
  }

  /** One table and the lock that guards it (all its fields). */
  private static final class Stripe {
    final ReentrantLock lock = new ReentrantLock();
    String[] keys = new String[INITIAL_SLOTS];
    MemoryCounter[] values = new MemoryCounter[INITIAL_SLOTS];
    int size;
  }

  static int stripeOf(String key) {
    return spread(key) & (STRIPES - 1);
  }

  private static int spread(String key) {
    int h = key.hashCode();
    return h ^ (h >>> 16);
  }

  /**
   * The first slot to probe: the hash's bits above the stripe's, Fibonacci-mixed, top bits kept
   * ({@code mask} is at least 3, so the shift is below 32).
   */
  private static int home(String key, int mask) {
    return ((spread(key) >>> STRIPE_BITS) * 0x9E3779B9) >>> Integer.numberOfLeadingZeros(mask);
  }

  void lock(int stripe) {
    stripes[stripe].lock.lock();
  }

  void unlock(int stripe) {
    stripes[stripe].lock.unlock();
  }

  /** The stored value (expired or not), or null; the caller holds {@code key}'s stripe lock. */
  MemoryCounter get(String key) {
    Stripe stripe = stripes[stripeOf(key)];
    int slot = find(stripe, key);
    return slot < 0 ? null : stripe.values[slot];
  }

  /** Stores {@code value} under {@code key}; the caller holds {@code key}'s stripe lock. */
  void put(String key, MemoryCounter value) {
    Stripe stripe = stripes[stripeOf(key)];
    int slot = find(stripe, key);
    if (slot >= 0) {
      stripe.values[slot] = value;
      return;
    }
    if ((stripe.size + 1) * 4 > stripe.keys.length * 3) {
      grow(stripe);
    }
    insertNew(stripe, key, value);
    stripe.size++;
    size.increment();
  }

  /** Removes {@code key}, returning its value or null; the caller holds its stripe lock. */
  MemoryCounter remove(String key) {
    Stripe stripe = stripes[stripeOf(key)];
    int slot = find(stripe, key);
    if (slot < 0) {
      return null;
    }
    MemoryCounter old = stripe.values[slot];
    deleteAt(stripe, slot);
    return old;
  }

  /** Removes, one stripe at a time under its lock, every counter {@code doomed} accepts. */
  long removeIf(Predicate<MemoryCounter> doomed) {
    long removed = 0;
    for (Stripe stripe : stripes) {
      stripe.lock.lock();
      try {
        // Deleting shifts a later entry of the run into this slot, so the slot is checked again.
        int slot = 0;
        while (slot < stripe.keys.length) {
          if (stripe.keys[slot] != null && doomed.test(stripe.values[slot])) {
            deleteAt(stripe, slot);
            removed++;
          } else {
            slot++;
          }
        }
      } finally {
        stripe.lock.unlock();
      }
    }
    return removed;
  }

  /** Every value's expiry, each stripe read under its lock; for eviction. */
  long[] expiries() {
    long[] out = new long[(int) Math.min(Integer.MAX_VALUE - 8, Math.max(0, size() + 64))];
    int n = 0;
    for (Stripe stripe : stripes) {
      stripe.lock.lock();
      try {
        for (int slot = 0; slot < stripe.keys.length && n < out.length; slot++) {
          if (stripe.keys[slot] != null) {
            out[n++] = stripe.values[slot].expiresAtMillis();
          }
        }
      } finally {
        stripe.lock.unlock();
      }
    }
    return Arrays.copyOf(out, n);
  }

  long size() {
    return size.sum();
  }

  void clear() {
    for (Stripe stripe : stripes) {
      stripe.lock.lock();
      try {
        size.add(-stripe.size);
        stripe.keys = new String[INITIAL_SLOTS];
        stripe.values = new MemoryCounter[INITIAL_SLOTS];
        stripe.size = 0;
      } finally {
        stripe.lock.unlock();
      }
    }
  }

  private static int find(Stripe stripe, String key) {
    String[] keys = stripe.keys;
    int mask = keys.length - 1;
    for (int slot = home(key, mask); ; slot = (slot + 1) & mask) {
      String at = keys[slot];
      if (at == null) {
        return -1;
      }
      if (at.equals(key)) {
        return slot;
      }
    }
  }

  private static void insertNew(Stripe stripe, String key, MemoryCounter value) {
    int mask = stripe.keys.length - 1;
    int slot = home(key, mask);
    while (stripe.keys[slot] != null) {
      slot = (slot + 1) & mask;
    }
    stripe.keys[slot] = key;
    stripe.values[slot] = value;
  }

  private static void grow(Stripe stripe) {
    String[] oldKeys = stripe.keys;
    MemoryCounter[] oldValues = stripe.values;
    stripe.keys = new String[oldKeys.length * 2];
    stripe.values = new MemoryCounter[oldKeys.length * 2];
    for (int slot = 0; slot < oldKeys.length; slot++) {
      if (oldKeys[slot] != null) {
        insertNew(stripe, oldKeys[slot], oldValues[slot]);
      }
    }
  }

  /**
   * Empties {@code hole} and moves back each later entry of its run that may not stay behind a hole
   * (backward-shift deletion), so lookups need no tombstones.
   */
  private void deleteAt(Stripe stripe, int hole) {
    String[] keys = stripe.keys;
    int mask = keys.length - 1;
    for (int slot = (hole + 1) & mask; keys[slot] != null; slot = (slot + 1) & mask) {
      int home = home(keys[slot], mask);
      // The entry stays when its home lies cyclically in (hole, slot].
      boolean stays = hole <= slot ? hole < home && home <= slot : hole < home || home <= slot;
      if (!stays) {
        keys[hole] = keys[slot];
        stripe.values[hole] = stripe.values[slot];
        hole = slot;
      }
    }
    keys[hole] = null;
    stripe.values[hole] = null;
    stripe.size--;
    size.decrement();
  }
}
