package dev.sluice.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.metrics.RuleCounts;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Usage;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The reference service's worked examples of near/over/within accounting (its unit tests). */
class HitAccountingTest {

  @ParameterizedTest(name = "L={0} a={1} after={2} -> over {3}, near {4}, within {5}")
  @CsvSource({
    "15, 1, 11, 0, 0, 1",
    "15, 1, 13, 0, 1, 1",
    "15, 1, 16, 1, 0, 0",
    "20, 3, 5, 0, 0, 3",
    "8, 2, 7, 0, 1, 2",
    "20, 3, 19, 0, 3, 3",
    "20, 3, 22, 2, 1, 0",
    "20, 7, 22, 2, 4, 0",
    "10, 3, 30, 3, 0, 0",
  })
  void fixedWindow_referenceExamples(
      long limit, long hits, long after, long over, long near, long within) {
    Limit fixed = Limit.of(limit, Unit.HOUR, Algorithm.FIXED_WINDOW);
    Usage usage = new Usage(after > limit, Math.max(0, limit - after), Duration.ZERO, after);
    RuleCounts counts = HitAccounting.of(fixed, hits, usage, false);
    assertThat(counts.total()).isEqualTo(hits);
    assertThat(counts.over()).isEqualTo(over);
    assertThat(counts.near()).isEqualTo(near);
    assertThat(counts.within()).isEqualTo(within);
    assertThat(counts.shadow()).isZero();
  }

  @ParameterizedTest
  @CsvSource({"20, 3, 22, 2", "10, 3, 30, 3"})
  void shadowRule_overLimitHits_countAsShadowToo(long limit, long hits, long after, long shadow) {
    Limit fixed = Limit.of(limit, Unit.HOUR, Algorithm.FIXED_WINDOW);
    Usage usage = new Usage(true, 0, Duration.ZERO, after);
    assertThat(HitAccounting.of(fixed, hits, usage, true).shadow()).isEqualTo(shadow);
  }

  @ParameterizedTest
  @CsvSource({"10, 3, 1", "10, 1, 0"})
  void tokenBucket_refusedTake_isAllOverLimit(long burst, long hits, long tokensLeft) {
    Limit bucket = new Limit(10, Unit.MINUTE, Algorithm.TOKEN_BUCKET, burst);
    Usage usage = new Usage(true, tokensLeft, Duration.ZERO, burst - tokensLeft + hits);
    RuleCounts counts = HitAccounting.of(bucket, hits, usage, false);
    assertThat(counts.over()).isEqualTo(hits);
    assertThat(counts.within()).isZero();
  }

  @ParameterizedTest(name = "ratio {0}: L=10 a=1 after={1} -> near {2}")
  @CsvSource({"0.8, 6, 0", "0.5, 6, 1", "0.5, 5, 0", "1.0, 10, 0", "0.1, 2, 1", "0.8, 9, 1"})
  void nearLimitRatio_movesTheNearThreshold(float ratio, long after, long near) {
    Limit fixed = Limit.of(10, Unit.HOUR, Algorithm.FIXED_WINDOW);
    Usage usage = new Usage(false, 10 - after, Duration.ZERO, after);
    assertThat(new HitAccounting(ratio).counts(fixed, 1, usage, false).near()).isEqualTo(near);
  }
}
