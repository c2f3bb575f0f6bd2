package dev.sluice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.testing.FakeClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 item 4: caller-chosen values under a day-long key-only rule were kept until the heap ran
 * out. The store now keeps at most --memory-max-counters, evicting the soonest-expiring first.
 */
class CounterCapacityTest {
  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final AtomicLong evicted = new AtomicLong();
  private final InMemoryCounterStore store =
      new InMemoryCounterStore(clock, clock, 100, evicted::addAndGet);

  @AfterEach
  void close() {
    store.close();
  }

  private static Hit hit(String key, Unit unit) {
    return new Hit(key, Limit.of(1_000, unit, Algorithm.FIXED_WINDOW), 1);
  }

  @Test
  void acquire_manyDistinctKeys_keepsAtMostTheMaximum() {
    for (int i = 0; i < 10_000; i++) {
      store.acquire(List.of(hit("day_" + i, Unit.DAY))).join();
    }

    assertThat(store.size()).isLessThanOrEqualTo(100);
    assertThat(evicted.get()).isGreaterThanOrEqualTo(10_000 - 100);
  }

  @Test
  void acquire_whenFull_evictsTheSoonestExpiringFirst() {
    for (int i = 0; i < 50; i++) {
      store.acquire(List.of(hit("day_" + i, Unit.DAY))).join();
    }
    for (int i = 0; i < 60; i++) {
      store.acquire(List.of(hit("second_" + i, Unit.SECOND))).join();
    }

    for (int i = 0; i < 50; i++) {
      assertThat(store.inspect(hit("day_" + i, Unit.DAY)).join().exists())
          .as("day_%d expires last and is kept", i)
          .isTrue();
    }
    assertThat(evicted.get()).isPositive();
  }

  @Test
  void acquire_expiredCounters_goBeforeAnyLiveOne() {
    for (int i = 0; i < 100; i++) {
      store.acquire(List.of(hit("second_" + i, Unit.SECOND))).join();
    }
    clock.advance(Duration.ofSeconds(2));
    store.acquire(List.of(hit("day_new", Unit.DAY))).join();

    assertThat(store.inspect(hit("day_new", Unit.DAY)).join().exists()).isTrue();
    assertThat(evicted.get()).as("expired counters are not evictions").isZero();
  }
}
