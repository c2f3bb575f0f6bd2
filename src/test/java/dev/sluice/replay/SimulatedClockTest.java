package dev.sluice.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.memory.InMemoryCounterStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The replay's clock is also its scheduler: the memory store sweeps on the capture's time. */
class SimulatedClockTest {
  private static final long T0 = 1_700_000_000_000L;

  @Test
  void moveTo_pastTheEndOfWindows_storeSweepsTheEndedCounters() {
    SimulatedClock clock = new SimulatedClock(T0);
    try (InMemoryCounterStore store = new InMemoryCounterStore(clock, clock).start()) {
      for (int i = 0; i < 100; i++) {
        store
            .acquire(
                List.of(new Hit("user-" + i, Limit.of(10, Unit.SECOND, Algorithm.FIXED_WINDOW), 1)))
            .join();
      }
      assertThat(store.size()).isEqualTo(100);

      clock.moveTo(T0 + 999);
      assertThat(store.size()).as("the window has not ended").isEqualTo(100);
      clock.moveTo(T0 + 1_000);
      assertThat(store.size()).as("swept on simulated time, no real time passed").isZero();
    }
  }

  @Test
  void moveTo_acrossAGapOfYears_runsARepeatingTaskOnceThenEveryDelay() {
    SimulatedClock clock = new SimulatedClock(T0);
    List<Long> runs = new ArrayList<>();
    clock.scheduleWithFixedDelay(
        () -> runs.add(clock.millis()), Duration.ofSeconds(1), Duration.ofSeconds(1));

    long years = T0 + Duration.ofDays(3_650).toMillis();
    clock.moveTo(years);
    clock.moveTo(years + 999);
    clock.moveTo(years + 1_000);
    clock.moveTo(years - 5); // never backwards

    assertThat(runs).containsExactly(years, years + 1_000);
    assertThat(clock.millis()).isEqualTo(years + 1_000);
  }

  @Test
  void cancel_stopsTheTask() {
    SimulatedClock clock = new SimulatedClock(T0);
    List<Long> runs = new ArrayList<>();
    clock
        .scheduleWithFixedDelay(
            () -> runs.add(clock.millis()), Duration.ZERO, Duration.ofSeconds(1))
        .cancel();

    clock.moveTo(T0 + 5_000);

    assertThat(runs).isEmpty();
  }
}
