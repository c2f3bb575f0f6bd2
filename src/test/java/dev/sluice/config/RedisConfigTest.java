package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RedisConfigTest {
  private static final RedisEndpoint LOCAL = RedisEndpoint.parse("redis://localhost");

  @Test
  void timeout_outOfRange_isRejectedNamingTheValue() {
    assertThatThrownBy(
            () ->
                RedisConfig.builder(LOCAL)
                    .timeout(Duration.ZERO)
                    .connections(4)
                    .keyPrefix("")
                    .build())
        .hasMessage("redis timeout must be between 1ms and 2147483647ms: PT0S");
    assertThatThrownBy(
            () ->
                RedisConfig.builder(LOCAL)
                    .timeout(Duration.ofMillis(-5))
                    .connections(4)
                    .keyPrefix("")
                    .build())
        .hasMessageContaining("PT-0.005S");
    assertThatThrownBy(
            () ->
                RedisConfig.builder(LOCAL)
                    .timeout(Duration.ofDays(30))
                    .connections(4)
                    .keyPrefix("")
                    .build())
        .hasMessageContaining("PT720H");
    assertThatThrownBy(
            () ->
                RedisConfig.builder(LOCAL)
                    .timeout(Duration.ofNanos(500_000))
                    .connections(4)
                    .keyPrefix("")
                    .build())
        .as("below the millisecond Jedis counts in")
        .hasMessageContaining("PT0.0005S");
  }

  @Test
  void connections_belowOne_isRejectedNamingTheValue() {
    assertThatThrownBy(
            () ->
                RedisConfig.builder(LOCAL)
                    .timeout(Duration.ofMillis(10))
                    .connections(0)
                    .keyPrefix("")
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("redis connections must be >= 1: 0");
  }

  @Test
  void keyPrefix_null_isRejected() {
    assertThatThrownBy(
            () ->
                RedisConfig.builder(LOCAL)
                    .timeout(Duration.ofMillis(10))
                    .connections(4)
                    .keyPrefix(null)
                    .build())
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
