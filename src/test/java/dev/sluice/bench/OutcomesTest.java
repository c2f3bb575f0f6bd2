package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OutcomesTest {
  private static final BenchResult.Setup SETUP =
      new BenchResult.Setup("sluice-bench", "127.0.0.1:8081", "open", 8, 100, 1, "hot");
  private static final long MILLISECOND = TimeUnit.MILLISECONDS.toNanos(1);

  private final Outcomes outcomes = new Outcomes(20 * MILLISECOND);

  private void send(int requests) {
    for (int i = 0; i < requests; i++) {
      outcomes.sent();
    }
  }

  private BenchResult result(boolean drained) {
    return outcomes.toResult(SETUP, Duration.ofSeconds(1), drained, 7);
  }

  @Test
  void toResult_drainTimedOut_theUnansweredAreUnfinishedErrorsSoCountsAddUp() {
    send(5);
    outcomes.answered(RateLimitResponse.Code.OK, System.nanoTime());
    outcomes.answered(RateLimitResponse.Code.OVER_LIMIT, System.nanoTime());
    outcomes.failed("UNAVAILABLE", "connection refused");

    BenchResult.Counts counts = result(false).counts();

    assertThat(counts.sent()).isEqualTo(5);
    assertThat(counts.ok()).isEqualTo(1);
    assertThat(counts.overLimit()).isEqualTo(1);
    assertThat(counts.errors()).containsOnlyKeys("UNAVAILABLE", "UNFINISHED");
    assertThat(counts.errors().get("UNFINISHED")).isEqualTo(2);
    assertThat(counts.ok() + counts.overLimit() + counts.errorCount()).isEqualTo(counts.sent());
  }

  @Test
  void answered_laterThanTheDeadline_isAnAnswerButNotGoodput() {
    send(3);
    outcomes.answered(RateLimitResponse.Code.OK, System.nanoTime());
    outcomes.answered(RateLimitResponse.Code.OVER_LIMIT, System.nanoTime());
    outcomes.answered(RateLimitResponse.Code.OK, System.nanoTime() - 30 * MILLISECOND);

    BenchResult result = result(true);

    assertThat(result.decisionsPerSecond()).isEqualTo(3);
    assertThat(result.counts().withinDeadline()).isEqualTo(2);
    assertThat(result.goodputPerSecond()).isEqualTo(2);
    assertThat(result.toJson()).contains("\"goodput_per_s\":2.0");
  }

  @Test
  void answered_sentLateButAnsweredWithinTheDeadlineOfTheSend_isGoodput() {
    send(1);
    long now = System.nanoTime();
    outcomes.answered(RateLimitResponse.Code.OK, now - 30 * MILLISECOND, now);

    assertThat(result(true).counts().withinDeadline()).isEqualTo(1);
  }

  @Test
  void toResult_drained_noUnfinishedEntry() {
    send(2);
    outcomes.answered(RateLimitResponse.Code.OK, System.nanoTime());
    outcomes.failed("DEADLINE_EXCEEDED", "deadline exceeded after 5s");

    BenchResult result = result(true);

    assertThat(result.counts().errors()).containsOnlyKeys("DEADLINE_EXCEEDED");
    assertThat(result.processCpuNanos()).isEqualTo(7);
    assertThat(result.setup()).isEqualTo(SETUP);
  }

  @Test
  void answered_okAndOverLimit_recordLatencyFromTheStartTime() {
    long start = System.nanoTime() - 5 * MILLISECOND;
    send(2);
    outcomes.answered(RateLimitResponse.Code.OK, start);
    outcomes.answered(RateLimitResponse.Code.OVER_LIMIT, start);

    LatencySummary latency = result(true).latency();

    assertThat(latency.count()).isEqualTo(2);
    assertThat(latency.p50Nanos()).isGreaterThanOrEqualTo(5 * MILLISECOND);
  }

  @Test
  void answered_unknownOverallCode_isAnErrorWithoutLatency() {
    send(1);
    outcomes.answered(RateLimitResponse.Code.UNKNOWN, System.nanoTime());

    BenchResult result = result(true);

    assertThat(result.counts().errors()).containsEntry("OVERALL_CODE_UNKNOWN", 1L);
    assertThat(result.firstErrors())
        .containsEntry("OVERALL_CODE_UNKNOWN", "the server answered overall_code UNKNOWN");
    assertThat(result.latency().count()).isZero();
  }

  @Test
  void failed_sameCodeTwice_countsBothAndKeepsTheFirstMessage() {
    send(2);
    outcomes.failed("UNAVAILABLE", "first");
    outcomes.failed("UNAVAILABLE", "second");

    BenchResult result = result(true);

    assertThat(result.counts().errors()).containsEntry("UNAVAILABLE", 2L);
    assertThat(result.firstErrors()).containsEntry("UNAVAILABLE", "first");
  }
}
