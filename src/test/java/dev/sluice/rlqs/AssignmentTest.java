package dev.sluice.rlqs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AssignmentTest {

  @Test
  void forShare_fastRate_oneSecondFillRoundedDown() {
    Assignment.Tokens tokens = Assignment.Tokens.forShare(333.33, 1000, Optional.empty());

    assertThat(tokens.fillInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(tokens.tokensPerFill()).isEqualTo(333);
    assertThat(tokens.maxTokens()).isEqualTo(67); // 0.2 s of the share, rounded up
  }

  @Test
  void forShare_slowRate_longerFillKeepsPrecision() {
    // 100 per minute split three ways: 0.5556/s; a 180 s fill holds 100 tokens.
    Assignment.Tokens tokens =
        Assignment.Tokens.forShare(100 / 180.0, 100 / 60.0, Optional.empty());

    assertThat(tokens.ratePerSecond())
        .isLessThanOrEqualTo(100 / 180.0)
        .isGreaterThan(0.99 * 100 / 180.0);
    assertThat(tokens.maxTokens()).isEqualTo(1);
  }

  @Test
  void forShare_underOnePerHour_oneTokenPerInverseShare() {
    Assignment.Tokens tokens = Assignment.Tokens.forShare(1 / 7200.0, 1, Optional.empty());

    assertThat(tokens.tokensPerFill()).isEqualTo(1);
    assertThat(tokens.fillInterval()).isEqualTo(Duration.ofHours(2));
  }

  @Test
  void forShare_tokenBucketRule_holdsItsPartOfTheBurst() {
    Assignment.Tokens tokens = Assignment.Tokens.forShare(25, 100, Optional.of(400L));

    assertThat(tokens.maxTokens()).isEqualTo(100);
    assertThat(tokens.ratePerSecond()).isEqualTo(25);
  }

  @Test
  void forShare_rateNeverAboveShare() {
    for (double share = 0.001; share < 5000; share *= 1.37) {
      Assignment.Tokens tokens = Assignment.Tokens.forShare(share, 5000, Optional.empty());
      assertThat(tokens.ratePerSecond()).isLessThanOrEqualTo(share * (1 + 1e-12));
    }
  }
}
