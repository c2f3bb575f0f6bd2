package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RedisConfigTest {
  private static final RedisEndpoint LOCAL = RedisEndpoint.parse("redis://localhost");

  @Test
  void timeout_outOfRange_isRejectedNamingTheValue() {
    assertThatThrownBy(() -> new RedisConfig(LOCAL, Duration.ZERO, 4, ""))
        .hasMessage("redis timeout must be between 1ms and 2147483647ms: PT0S");
    assertThatThrownBy(() -> new RedisConfig(LOCAL, Duration.ofMillis(-5), 4, ""))
        .hasMessageContaining("PT-0.005S");
    assertThatThrownBy(() -> new RedisConfig(LOCAL, Duration.ofDays(30), 4, ""))
        .hasMessageContaining("PT720H");
    assertThatThrownBy(() -> new RedisConfig(LOCAL, Duration.ofNanos(500_000), 4, ""))
        .as("below the millisecond Jedis counts in")
        .hasMessageContaining("PT0.0005S");
  }

  @Test
  void connections_belowOne_isRejectedNamingTheValue() {
    assertThatThrownBy(() -> new RedisConfig(LOCAL, Duration.ofMillis(10), 0, ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("redis connections must be >= 1: 0");
  }

  @Test
  void keyPrefix_null_isRejected() {
    assertThatThrownBy(() -> new RedisConfig(LOCAL, Duration.ofMillis(10), 4, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("keyPrefix");
  }

  @Test
  void defaults_areTheDocumentedOnes() {
    RedisConfig defaults = RedisConfig.defaults();
    assertThat(defaults.endpoint()).isEqualTo(RedisEndpoint.Standalone.of("localhost", 6379));
    assertThat(defaults.timeout()).isEqualTo(Duration.ofMillis(100));
    assertThat(defaults.connections()).isEqualTo(2);
    assertThat(defaults.keyPrefix()).isEmpty();
  }
}
