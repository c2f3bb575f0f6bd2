package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencySummaryTest {

  @Test
  void from_oneToThousandMicros_percentilesWithinHistogramPrecision() {
    Histogram histogram = LatencySummary.newHistogram();
    for (long micros = 1; micros <= 1000; micros++) {
      histogram.recordValue(micros * 1000);
    }

    LatencySummary summary = LatencySummary.from(histogram);

    assertThat(summary.count()).isEqualTo(1000);
    // 3 significant digits: each reported value is the top of its bucket, at most 0.1% high.
    assertThat(summary.p50Nanos()).isCloseTo(500_000, within(500L));
    assertThat(summary.p90Nanos()).isCloseTo(900_000, within(900L));
    assertThat(summary.p99Nanos()).isCloseTo(990_000, within(990L));
    assertThat(summary.p999Nanos()).isCloseTo(999_000, within(999L));
    assertThat(summary.maxNanos()).isCloseTo(1_000_000, within(1000L));
    assertThat(summary.p50Nanos()).isGreaterThanOrEqualTo(500_000);
  }

  @Test
  void from_emptyHistogram_isAllZero() {
    assertThat(LatencySummary.from(LatencySummary.newHistogram())).isEqualTo(LatencySummary.EMPTY);
  }

  @Test
  void capped_aboveHighestTrackable_recordsTheHighestInsteadOfThrowing() {
    Histogram histogram = LatencySummary.newHistogram();
    histogram.recordValue(LatencySummary.capped(Long.MAX_VALUE));
    histogram.recordValue(LatencySummary.capped(-5));

    assertThat(histogram.getTotalCount()).isEqualTo(2);
    assertThat(LatencySummary.capped(-5)).isZero();
  }

  @Test
  void toText_millisecondsWithThreeDecimals() {
    LatencySummary summary =
        new LatencySummary(10, 412_345, 530_000, 1_204_999, 3_100_000, 12_004_000);

    assertThat(summary.toText())
        .isEqualTo("p50 0.412 ms  p90 0.530 ms  p99 1.205 ms  p99.9 3.100 ms  max 12.004 ms");
  }

  @Test
  void toJsonFields_microsecondsWithOneDecimal() {
    LatencySummary summary = new LatencySummary(10, 412_345, 530_000, 1_204_999, 3_100_000, 1);

    assertThat(summary.toJsonFields())
        .isEqualTo(
            "\"p50_us\":412.3,\"p90_us\":530.0,\"p99_us\":1205.0,\"p999_us\":3100.0,"
                + "\"max_us\":0.0");
  }
}
