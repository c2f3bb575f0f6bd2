package dev.sluice.rlqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FairShareTest {
  private static final double INF = Double.POSITIVE_INFINITY;

  @Test
  void divide_allAskMore_equalShares() {
    assertThat(FairShare.divide(100, new double[] {120, 60, 300}))
        .containsExactly(new double[] {100 / 3.0, 100 / 3.0, 100 / 3.0}, within(1e-9));
  }

  @Test
  void divide_smallDemandMet_restSplitAmongOthers() {
    // 5 and 15 are under the equal share of 25; 80 left for the two that ask more.
    assertThat(FairShare.divide(100, new double[] {120, 5, 60, 15}))
        .containsExactly(new double[] {40, 5, 40, 15}, within(1e-9));
  }

  @Test
  void divide_waterLevelRises_whenSecondDemandIsUnderIt() {
    // Equal share 33.3: 10 is met; 45 each left for two; 30 is under 45, met; 60 for the last.
    assertThat(FairShare.divide(100, new double[] {10, 30, 500}))
        .containsExactly(new double[] {10, 30, 60}, within(1e-9));
  }

  @Test
  void divide_everyDemandMet_slackSplitEqually() {
    assertThat(FairShare.divide(100, new double[] {10, 30}))
        .containsExactly(new double[] {40, 60}, within(1e-9));
  }

  @Test
  void divide_sumNeverExceedsLimit() {
    java.util.Random random = new java.util.Random(7);
    for (int round = 0; round < 1_000; round++) {
      double[] demands = new double[1 + random.nextInt(20)];
      for (int i = 0; i < demands.length; i++) {
        demands[i] = random.nextInt(4) == 0 ? INF : random.nextDouble() * 200;
      }
      double limit = random.nextDouble() * 500;
      double[] shares = FairShare.divide(limit, demands);
      assertThat(Arrays.stream(shares).sum()).isLessThanOrEqualTo(limit * (1 + 1e-12));
      for (int i = 0; i < demands.length; i++) {
        assertThat(shares[i]).isGreaterThanOrEqualTo(0);
        // Max-min: a client gets less than it asks only if nobody gets more than it.
        if (shares[i] < demands[i] - 1e-9) {
          for (double other : shares) {
            assertThat(other).isLessThanOrEqualTo(shares[i] + 1e-9);
          }
        }
      }
    }
  }

  @Test
  void divide_clientLeaves_othersTakeItsShare() {
    double[] before = FairShare.divide(90, new double[] {100, 100, 100});
    double[] after = FairShare.divide(90, new double[] {100, 100});

    assertThat(before).containsExactly(new double[] {30, 30, 30}, within(1e-9));
    assertThat(after).containsExactly(new double[] {45, 45}, within(1e-9));
  }

  @Test
  void divide_clientArrivesUnknown_getsTheWaterLevel() {
    double[] shares = FairShare.divide(90, new double[] {100, 10, INF});

    assertThat(shares).containsExactly(new double[] {40, 10, 40}, within(1e-9));
  }

  @Test
  void divide_nothingToDivide_zeroEach() {
    assertThat(FairShare.divide(0, new double[] {5, INF})).containsExactly(0, 0);
    assertThat(FairShare.divide(10, new double[0])).isEmpty();
  }

  @Test
  void divide_negativeDemand_refused() {
    assertThatThrownBy(() -> FairShare.divide(10, new double[] {-1}))
        .hasMessage("demand must be >= 0: -1.0");
  }
}
