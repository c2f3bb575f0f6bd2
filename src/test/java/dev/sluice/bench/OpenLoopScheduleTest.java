package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OpenLoopScheduleTest {
  private static final long START = 1_000_000_000L;

  @Test
  void dueNanos_thousandPerSecond_oneMillisecondApart() {
    OpenLoopSchedule schedule = new OpenLoopSchedule(START, 1000);

    assertThat(schedule.dueNanos(0)).isEqualTo(START);
    assertThat(schedule.dueNanos(1)).isEqualTo(START + 1_000_000);
    assertThat(schedule.dueNanos(1000)).isEqualTo(START + 1_000_000_000);
  }

  @Test
  void dueNanos_rateWithRepeatingInterval_computedFromIndexSoItNeverDrifts() {
    OpenLoopSchedule schedule = new OpenLoopSchedule(START, 3);

    assertThat(schedule.dueNanos(1)).isEqualTo(START + 333_333_333);
    assertThat(schedule.dueNanos(2)).isEqualTo(START + 666_666_666);
    // Adding a rounded 333_333_333 ns three million times would be 1 ms early; the index is not.
    assertThat(schedule.dueNanos(3_000_000)).isEqualTo(START + 1_000_000_000_000_000L);
  }

  @Test
  void dueNanos_negativeStartFromNanoTime_stillOffsetsFromIt() {
    OpenLoopSchedule schedule = new OpenLoopSchedule(-500, 2);

    assertThat(schedule.dueNanos(1)).isEqualTo(-500 + 500_000_000);
  }

  @Test
  void dueBy_countsRequestsWhoseDueTimeHasCome() {
    OpenLoopSchedule schedule = new OpenLoopSchedule(START, 1000);

    assertThat(schedule.dueBy(START - 1)).isZero();
    assertThat(schedule.dueBy(START)).isEqualTo(1);
    assertThat(schedule.dueBy(START + 999_999)).isEqualTo(1);
    assertThat(schedule.dueBy(START + 1_000_000)).isEqualTo(2);
    assertThat(schedule.dueBy(START + 1_000_000_000)).isEqualTo(1001);
  }

  @Test
  void countBetween_tenSecondsAtFiveHundredPerSecond_isFiveThousand() {
    OpenLoopSchedule schedule = new OpenLoopSchedule(START, 500);
    long warmupEnd = START + 2_000_000_000L;

    assertThat(schedule.countBetween(START, warmupEnd)).isEqualTo(1000);
    assertThat(schedule.countBetween(warmupEnd, warmupEnd + 10_000_000_000L)).isEqualTo(5000);
  }

  @Test
  void ramp_twoSecondsToThousandPerSecond_rateRisesLinearlyThenHolds() {
    OpenLoopSchedule schedule = new OpenLoopSchedule(START, 1000, 2_000_000_000L);

    assertThat(schedule.rampRequests()).isEqualTo(1000.0);
    // After 1 s of a ramp rising to 1000/s over 2 s: 1000 * 1^2 / (2 * 2) = 250 requests.
    assertThat(schedule.dueNanos(250)).isEqualTo(START + 1_000_000_000L);
    assertThat(schedule.dueNanos(1000)).isEqualTo(START + 2_000_000_000L);
    assertThat(schedule.dueNanos(1001)).isEqualTo(START + 2_001_000_000L);
    assertThat(schedule.countBetween(START, START + 2_000_000_000L)).isEqualTo(1000);
    assertThat(schedule.countBetween(START + 2_000_000_000L, START + 12_000_000_000L))
        .isEqualTo(10_000);
  }

  @Test
  void ramp_dueTimesNeverGoBackwards() {
    OpenLoopSchedule schedule = new OpenLoopSchedule(START, 333.3, 1_234_567_891L);

    for (long i = 1; i < 2000; i++) {
      assertThat(schedule.dueNanos(i)).isGreaterThanOrEqualTo(schedule.dueNanos(i - 1));
    }
  }

  @Test
  void new_negativeRamp_rejected() {
    assertThatThrownBy(() -> new OpenLoopSchedule(0, 1, -1)).hasMessageContaining(": -1");
  }

  @Test
  void new_zeroNegativeOrNanRate_rejectedNamingTheValue() {
    assertThatThrownBy(() -> new OpenLoopSchedule(0, 0)).hasMessageContaining(": 0.0");
    assertThatThrownBy(() -> new OpenLoopSchedule(0, -1)).hasMessageContaining(": -1.0");
    assertThatThrownBy(() -> new OpenLoopSchedule(0, Double.NaN)).hasMessageContaining("NaN");
  }
}
