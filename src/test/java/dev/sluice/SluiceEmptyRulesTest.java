package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.RulesConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.rules.Algorithm;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve} with zero rules (issue 11 item 5): refused unless --allow-empty-rules. */
class SluiceEmptyRulesTest {
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);

  private ServeConfig config(boolean allowEmpty) {
    return RunningSluice.config(RunningSluice.memoryStore())
        .withRules(new RulesConfig(dir, Duration.ofSeconds(1), Algorithm.FIXED_WINDOW, allowEmpty));
  }

  @Test
  void start_emptyRuleDirectory_failsWithTheReason() {
    assertThatThrownBy(() -> Sluice.start(config(false), clock))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("no rules found")
        .hasMessageContaining("--allow-empty-rules");
  }

  @Test
  void start_emptyRuleDirectoryAllowed_starts() {
    try (Sluice sluice = Sluice.start(config(true), clock)) {
      assertThat(sluice.grpcPort()).isPositive();
    }
  }
}
