package dev.sluice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.algorithm.MemoryCounter;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.Hammer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The open-addressing table against a {@link HashMap} doing the same operations: backward-shift
 * deletion must never lose an entry that sits behind a removed one in its probe run.
 */
class CounterTableTest {
  private record Value(long expiresAtMillis) implements MemoryCounter {}

  private final CounterTable table = new CounterTable();

  /** Takes the key's stripe lock, as the store does around every call. */
  private <T> T locked(String key, java.util.function.Supplier<T> action) {
    int stripe = CounterTable.stripeOf(key);
    table.lock(stripe);
    try {
      return action.get();
    } finally {
      table.unlock(stripe);
    }
  }

  @Test
  void putGetRemove_randomOperations_agreeWithAHashMap() {
    Map<String, MemoryCounter> model = new HashMap<>();
    Random random = new Random(16);
    for (int op = 0; op < 200_000; op++) {
      String key = "k" + random.nextInt(20_000);
      switch (random.nextInt(3)) {
        case 0 -> {
          Value value = new Value(op);
          locked(
              key,
              () -> {
                table.put(key, value);
                return null;
              });
          model.put(key, value);
        }
        case 1 -> assertThat(locked(key, () -> table.remove(key))).isEqualTo(model.remove(key));
        default -> assertThat(locked(key, () -> table.get(key))).isEqualTo(model.get(key));
      }
    }
    assertThat(table.size()).isEqualTo(model.size());
    for (Map.Entry<String, MemoryCounter> entry : model.entrySet()) {
      assertThat(locked(entry.getKey(), () -> table.get(entry.getKey())))
          .isEqualTo(entry.getValue());
    }
  }

  @Test
  void removeIf_halfTheValues_removesExactlyThoseAndKeepsTheRestReachable() {
    for (int i = 0; i < 50_000; i++) {
      String key = "k" + i;
      Value value = new Value(i);
      locked(
          key,
          () -> {
            table.put(key, value);
            return null;
          });
    }

    long removed = table.removeIf(value -> value.expiresAtMillis() % 2 == 0);

    assertThat(removed).isEqualTo(25_000);
    assertThat(table.size()).isEqualTo(25_000);
    for (int i = 0; i < 50_000; i++) {
      String key = "k" + i;
      MemoryCounter found = locked(key, () -> table.get(key));
      assertThat(found).as(key).isEqualTo(i % 2 == 0 ? null : new Value(i));
    }
    assertThat(java.util.Arrays.stream(table.expiries()).filter(expiry -> expiry % 2 == 1).count())
        .isEqualTo(25_000);
  }

  /**
   * Eight threads charge the same 5,000 new keys at once, so stripes grow while others probe them:
   * each key must allow exactly its limit of 4 and the store must hold each key once.
   */
  @Test
  void acquire_manyThreadsOnNewKeys_eachKeyAllowsExactlyItsLimit() throws Exception {
    FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
    InMemoryCounterStore store = new InMemoryCounterStore(clock, clock);
    Limit limit = Limit.of(4, Unit.HOUR, Algorithm.FIXED_WINDOW);
    int keys = 5_000;

    int allowed =
        Hammer.countAllowed(
            8,
            keys,
            t -> {
              int[] next = {0};
              return () -> {
                Hit hit = new Hit("k" + next[0]++, limit, 1);
                return !store.acquire(List.of(hit)).join().get(0).overLimit();
              };
            });

    assertThat(allowed).isEqualTo(4 * keys);
    assertThat(store.size()).isEqualTo(keys);
    store.close();
  }

  @Test
  void clear_afterPuts_leavesNothing() {
    locked(
        "a",
        () -> {
          table.put("a", new Value(1));
          return null;
        });

    table.clear();

    assertThat(table.size()).isZero();
    assertThat(locked("a", () -> table.get("a"))).isNull();
  }
}
