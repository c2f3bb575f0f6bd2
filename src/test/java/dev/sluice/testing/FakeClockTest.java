package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.threads.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FakeClockTest {
  private final FakeClock clock = FakeClock.atEpochSecond(1_000);
  private final List<String> runs = new ArrayList<>();

  private Runnable record(String name) {
    return () -> runs.add(name + "@" + (clock.millis() - 1_000_000));
  }

  @Test
  void fixedDelayTask_runsAtEachDueTimeThatAdvancePasses() {
    clock.scheduleWithFixedDelay(
        record("sweep"), Duration.ofMillis(1_000), Duration.ofMillis(1_000));
    clock.advance(Duration.ofMillis(999));
    assertThat(runs).isEmpty();
    clock.advance(Duration.ofMillis(2_500));
    assertThat(runs).containsExactly("sweep@1000", "sweep@2000", "sweep@3000");
    assertThat(clock.instant()).isEqualTo(Instant.ofEpochMilli(1_003_499));
  }

  @Test
  void tasks_runInDueTimeOrder_seeingTheirOwnDueTime() {
    clock.scheduleWithFixedDelay(record("slow"), Duration.ofMillis(300), Duration.ofMillis(300));
    clock.scheduleWithFixedDelay(record("fast"), Duration.ofMillis(200), Duration.ofMillis(200));
    clock.advance(Duration.ofMillis(600));
    assertThat(runs).containsExactly("fast@200", "slow@300", "fast@400", "slow@600", "fast@600");
  }

  @Test
  void cancel_stopsLaterRuns() {
    Scheduler.Cancellable task =
        clock.scheduleWithFixedDelay(record("poll"), Duration.ZERO, Duration.ofSeconds(1));
    clock.runDueTasks();
    task.cancel();
    clock.advance(Duration.ofSeconds(5));
    assertThat(runs).containsExactly("poll@0");
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void execute_runsOnTheNextAdvance_notOnTheCallersStack() {
    clock.execute(record("soon"));
    assertThat(runs).isEmpty();
    clock.runDueTasks();
    assertThat(runs).containsExactly("soon@0");
    clock.runDueTasks();
    assertThat(runs).hasSize(1);
  }

  @Test
  void taskThatThrows_failsTheAdvance_andStaysScheduled() {
    clock.scheduleWithFixedDelay(
        () -> {
          runs.add("boom");
          throw new IllegalStateException("boom");
        },
        Duration.ofSeconds(1),
        Duration.ofSeconds(1));
    assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(1))).hasMessage("boom");
    assertThat(clock.pendingTasks()).isEqualTo(1);
  }

  @Test
  void taskScheduledByATask_runsWithinTheSameAdvanceWhenDue() {
    clock.scheduleWithFixedDelay(
        () -> {
          runs.add("outer");
          clock.execute(record("inner"));
        },
        Duration.ofSeconds(1),
        Duration.ofHours(1));
    clock.advance(Duration.ofSeconds(2));
    assertThat(runs).containsExactly("outer", "inner@1000");
  }
}
