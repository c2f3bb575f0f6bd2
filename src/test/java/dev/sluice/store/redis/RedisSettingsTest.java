package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RedisSettingsTest {
  private static final Duration TIMEOUT = Duration.ofMillis(250);

  private static RedisSettings settings(String url) {
    return new RedisSettings(URI.create(url), TIMEOUT, 4);
  }

  @Test
  void url_full_yieldsEveryPart() {
    RedisSettings settings = settings("rediss://app:s3cr%40t@cache.internal:6380/2");
    assertThat(settings.host()).isEqualTo("cache.internal");
    assertThat(settings.port()).isEqualTo(6380);
    assertThat(settings.database()).isEqualTo(2);
    assertThat(settings.tls()).isTrue();
    assertThat(settings.user()).contains("app");
    assertThat(settings.password()).contains("s3cr@t");
    assertThat(settings.address()).isEqualTo("cache.internal:6380");
    assertThat(settings.keyPrefix()).isEmpty();
  }

  @Test
  void url_minimal_defaultsPortDatabaseAndCredentials() {
    RedisSettings settings = settings("redis://localhost");
    assertThat(settings.port()).isEqualTo(6379);
    assertThat(settings.database()).isZero();
    assertThat(settings.tls()).isFalse();
    assertThat(settings.user()).isEmpty();
    assertThat(settings.password()).isEmpty();
  }

  @Test
  void url_passwordOnly_hasNoUser() {
    RedisSettings settings = settings("redis://:hunter2@localhost:6379/");
    assertThat(settings.user()).isEmpty();
    assertThat(settings.password()).contains("hunter2");
    assertThat(settings.database()).isZero();
  }

  @Test
  void toString_masksThePassword() {
    String text = settings("redis://app:hunter2@localhost:6379").toString();
    assertThat(text).contains("redis://app:***@localhost:6379").doesNotContain("hunter2");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "http://localhost:6379    | must start with redis:// or rediss://",
        "localhost:6379           | must start with redis:// or rediss://",
        "redis://under_score:6379 | must name a host",
        "redis://localhost:0      | port must be 1..65535",
        "redis://localhost/db1    | path must be /<database number>",
        "redis://localhost/1?x=y  | must not have a query",
        "redis://hunter2@localhost| credentials must be user:password or :password",
      })
  void url_invalid_isRejectedNamingTheValue(String url, String message) {
    assertThatThrownBy(() -> settings(url))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message)
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void invalidUrl_withPassword_isNamedWithThePasswordMasked() {
    assertThatThrownBy(() -> settings("redis://app:hunter2@localhost/x"))
        .hasMessageEndingWith(": redis://app:***@localhost/x");
  }

  @Test
  void timeout_outOfRange_isRejectedNamingTheValue() {
    URI url = URI.create("redis://localhost");
    assertThatThrownBy(() -> new RedisSettings(url, Duration.ZERO, 4))
        .hasMessage("redis timeout must be between 1ms and 2147483647ms: PT0S");
    assertThatThrownBy(() -> new RedisSettings(url, Duration.ofMillis(-5), 4))
        .hasMessageContaining("PT-0.005S");
    assertThatThrownBy(() -> new RedisSettings(url, Duration.ofDays(30), 4))
        .hasMessageContaining("PT720H");
  }

  @Test
  void poolSize_belowOne_isRejectedNamingTheValue() {
    assertThatThrownBy(() -> new RedisSettings(URI.create("redis://localhost"), TIMEOUT, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("redis pool size must be >= 1: 0");
  }

  @Test
  void keyPrefix_null_isRejected() {
    assertThatThrownBy(() -> new RedisSettings(URI.create("redis://localhost"), TIMEOUT, 4, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("keyPrefix");
  }
}
