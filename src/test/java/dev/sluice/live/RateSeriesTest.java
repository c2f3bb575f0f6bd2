package dev.sluice.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import org.junit.jupiter.api.Test;

class RateSeriesTest {
  @Test
  void window_placesEachSecondOldestFirst_andForgetsSecondsOlderThanTheRing() {
    RateSeries series = new RateSeries(5, Limit.of(2, Unit.MINUTE, Algorithm.FIXED_WINDOW));
    series.add(100, false, 1, 0);
    series.add(100, true, 1, 1);
    series.add(103, true, 2, 2);
    series.add(106, false, 1, 0); // reuses 101's bucket; 100..101 now outside the window

    long[][] window = series.window(106);

    assertThat(window[0]).containsExactly(0, 1, 0, 0, 1); // seconds 102..106
    assertThat(window[1]).containsExactly(0, 1, 0, 0, 0);
    assertThat(series.totals()).isEqualTo(new RateSeries.Totals(4, 2, 5, 3));
  }

  @Test
  void add_aBucketFromAnOlderLap_isClearedBeforeReuse() {
    RateSeries series = new RateSeries(3, Limit.of(2, Unit.MINUTE, Algorithm.FIXED_WINDOW));
    series.add(10, true, 1, 1);
    series.add(13, false, 1, 0); // same bucket as 10, three seconds later

    assertThat(series.window(13)[0]).containsExactly(0, 0, 1);
    assertThat(series.window(13)[1]).containsExactly(0, 0, 0);
  }
}
