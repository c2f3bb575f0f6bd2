package dev.sluice.rules.xds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.XdsConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReconnectBackoffTest {
  private static final XdsConfig.Backoff ONE_TO_EIGHT =
      new XdsConfig.Backoff(Duration.ofSeconds(1), Duration.ofSeconds(8), 0.5);

  @Test
  void next_withoutJitterSpread_doublesUpToTheMax() {
    ReconnectBackoff backoff = new ReconnectBackoff(ONE_TO_EIGHT, () -> 0.5);

    assertThat(waits(backoff, 6)).containsExactly(1000L, 2000L, 4000L, 8000L, 8000L, 8000L);
  }

  @Test
  void next_jitter_movesEachWaitByUpToItsShare() {
    assertThat(new ReconnectBackoff(ONE_TO_EIGHT, () -> 0.0).next()).hasMillis(500);
    assertThat(new ReconnectBackoff(ONE_TO_EIGHT, () -> 0.999_999).next().toMillis())
        .isEqualTo(1500);
  }

  @Test
  void reset_afterAResponse_startsAgainFromTheInitialWait() {
    ReconnectBackoff backoff = new ReconnectBackoff(ONE_TO_EIGHT, () -> 0.5);
    waits(backoff, 3);

    backoff.reset();

    assertThat(backoff.next()).hasMillis(1000);
  }

  @Test
  void next_manyFailures_neverOverflows() {
    ReconnectBackoff backoff = new ReconnectBackoff(ONE_TO_EIGHT, () -> 0.5);

    assertThat(waits(backoff, 200)).allMatch(wait -> wait > 0 && wait <= 8000);
  }

  private static java.util.List<Long> waits(ReconnectBackoff backoff, int count) {
    java.util.List<Long> waits = new java.util.ArrayList<>();
    for (int i = 0; i < count; i++) {
      waits.add(backoff.next().toMillis());
    }
    return waits;
  }
}
