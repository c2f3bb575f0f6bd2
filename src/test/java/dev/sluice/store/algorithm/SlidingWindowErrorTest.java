package dev.sluice.store.algorithm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The error of the two-window estimate against an exact sliding log, for the README: 10 hits a
 * minute, some hits in one minute, then one request a second for the next two minutes. The estimate
 * assumes the previous minute's hits were spread evenly: it admits too many when they came late in
 * that minute and too few when they came early. The exact log never holds more than the limit in
 * any 60 s; the figures below are what each admits.
 */
class SlidingWindowErrorTest {
  private static final Limit LIMIT = Limit.of(10, Unit.MINUTE, Algorithm.SLIDING_WINDOW);
  private static final long MINUTE = 60;

  /** Seconds, from the start of an epoch minute, at which the first minute's 10 hits arrive. */
  private static final List<Long> LATE = IntStream.range(0, 10).mapToObj(i -> 59L).toList();

  private static final List<Long> EVEN = IntStream.range(0, 10).mapToObj(i -> 6L * i).toList();
  private static final List<Long> EARLY = IntStream.range(0, 10).mapToObj(i -> 0L).toList();

  @Test
  void hitsLateInThePreviousMinute_estimateAdmitsMoreThanTheLimitInSomeMinute() {
    Outcome outcome = run(LATE);
    assertThat(outcome.log().worstRollingMinute()).isEqualTo(10);
    assertThat(outcome.estimate().worstRollingMinute()).isEqualTo(19);
    assertThat(outcome.estimate().admittedAfter()).isEqualTo(18);
    assertThat(outcome.log().admittedAfter()).isEqualTo(11);
  }

  @Test
  void hitsSpreadEvenly_estimateNeverAboveTheLimitButAdmitsFewer() {
    Outcome outcome = run(EVEN);
    assertThat(outcome.log().worstRollingMinute()).isEqualTo(10);
    assertThat(outcome.estimate().worstRollingMinute()).isEqualTo(10);
    assertThat(outcome.estimate().admittedAfter()).isEqualTo(18);
    assertThat(outcome.log().admittedAfter()).isEqualTo(20);
  }

  @Test
  void hitsEarlyInThePreviousMinute_estimateAdmitsFewerThanTheLog() {
    Outcome outcome = run(EARLY);
    assertThat(outcome.log().worstRollingMinute()).isEqualTo(10);
    assertThat(outcome.estimate().worstRollingMinute()).isEqualTo(10);
    assertThat(outcome.estimate().admittedAfter()).isEqualTo(18);
    assertThat(outcome.log().admittedAfter()).isEqualTo(20);
  }

  /** What one limiter admitted: after the first minute, and most in any rolling 60 s. */
  record Admitted(int admittedAfter, int worstRollingMinute) {}

  record Outcome(Admitted estimate, Admitted log) {}

  private static Outcome run(List<Long> firstMinute) {
    long start = 28_333_334L * MINUTE; // an epoch minute
    FakeClock clock = FakeClock.atEpochSecond(start);
    InMemoryCounterStore store = new InMemoryCounterStore(clock, clock);
    ExactLog log = new ExactLog();
    List<Long> byEstimate = new ArrayList<>();
    List<Long> byLog = new ArrayList<>();
    List<Long> arrivals = new ArrayList<>(firstMinute);
    java.util.stream.LongStream.range(MINUTE, 3 * MINUTE).forEach(arrivals::add);
    for (long second : arrivals) {
      clock.set(java.time.Instant.ofEpochSecond(start + second));
      Hit hit = new Hit("sw|error", LIMIT, 1);
      if (!store.acquire(List.of(hit)).join().get(0).overLimit()) {
        byEstimate.add(second);
      }
      if (log.tryAcquire(second)) {
        byLog.add(second);
      }
    }
    store.close();
    return new Outcome(admitted(byEstimate), admitted(byLog));
  }

  private static Admitted admitted(List<Long> seconds) {
    int after = (int) seconds.stream().filter(s -> s >= MINUTE).count();
    int worst = 0;
    for (long end : seconds) {
      long from = end - MINUTE;
      worst = Math.max(worst, (int) seconds.stream().filter(s -> s > from && s <= end).count());
    }
    return new Admitted(after, worst);
  }

  /** The exact rolling window: every admitted hit's time, kept for 60 s. */
  private static final class ExactLog {
    private final Deque<Long> admitted = new ArrayDeque<>();

    boolean tryAcquire(long second) {
      while (!admitted.isEmpty() && admitted.peekFirst() <= second - MINUTE) {
        admitted.pollFirst();
      }
      if (admitted.size() + 1 > LIMIT.requestsPerUnit()) {
        return false;
      }
      admitted.addLast(second);
      return true;
    }
  }
}
