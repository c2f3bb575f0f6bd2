package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RedisEndpointTest {
  private static RedisEndpoint.Standalone standalone(String url) {
    return (RedisEndpoint.Standalone) RedisEndpoint.parse(url);
  }

  @Test
  void parse_fullUrl_yieldsEveryPart() {
    RedisEndpoint.Standalone endpoint = standalone("rediss://app:s3cr%40t@cache.internal:6380/2");
    assertThat(endpoint.host()).isEqualTo("cache.internal");
    assertThat(endpoint.port()).isEqualTo(6380);
    assertThat(endpoint.database()).isEqualTo(2);
    assertThat(endpoint.tls()).isTrue();
    assertThat(endpoint.user()).contains("app");
    assertThat(endpoint.password()).contains(Secret.of("s3cr@t"));
    assertThat(endpoint.address()).isEqualTo("cache.internal:6380");
  }

  @Test
  void parse_minimalUrl_defaultsPortDatabaseAndCredentials() {
    RedisEndpoint.Standalone endpoint = standalone("redis://localhost");
    assertThat(endpoint.port()).isEqualTo(6379);
    assertThat(endpoint.database()).isZero();
    assertThat(endpoint.tls()).isFalse();
    assertThat(endpoint.user()).isEmpty();
    assertThat(endpoint.password()).isEmpty();
    assertThat(endpoint).isEqualTo(RedisEndpoint.Standalone.of("localhost", 6379));
  }

  @Test
  void parse_passwordOnly_hasNoUser() {
    RedisEndpoint.Standalone endpoint = standalone("redis://:hunter2@localhost:6379/");
    assertThat(endpoint.user()).isEmpty();
    assertThat(endpoint.password().map(Secret::reveal)).contains("hunter2");
    assertThat(endpoint.database()).isZero();
  }

  @Test
  void toString_masksThePassword() {
    assertThat(RedisEndpoint.parse("redis://app:hunter2@localhost:6379").toString())
        .isEqualTo("redis://app:***@localhost:6379/0");
    assertThat(RedisEndpoint.parse("rediss://:hunter2@h/3").toString())
        .isEqualTo("rediss://:***@h:6379/3");
  }

  @Test
  void toString_roundTrips_throughParse() {
    RedisEndpoint endpoint = RedisEndpoint.parse("rediss://cache:6380/2");
    assertThat(RedisEndpoint.parse(endpoint.toString())).isEqualTo(endpoint);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "http://localhost:6379    | must start with redis:// or rediss://",
        "localhost:6379           | must start with redis:// or rediss://",
        "redis://under_score:6379 | must name a host",
        "redis://localhost:0      | port must be 1..65535",
        "redis://localhost:70000  | port must be 1..65535",
        "redis://localhost/db1    | path must be /<database number>",
        "redis://localhost/1?x=y  | must not have a query",
        "redis://hunter2@localhost| credentials must be user:password or :password",
        "redis://a:hunter2@h o st | invalid redis url",
      })
  void parse_invalidUrl_isRejectedNamingTheValue(String url, String message) {
    assertThatThrownBy(() -> RedisEndpoint.parse(url))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message)
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void parse_invalidUrlWithPassword_isNamedWithThePasswordMasked() {
    assertThatThrownBy(() -> RedisEndpoint.parse("redis://app:hunter2@localhost/x"))
        .hasMessageEndingWith(": redis://app:***@localhost/x");
  }

  @Test
  void standalone_outOfRangeParts_areRejected() {
    assertThatThrownBy(() -> RedisEndpoint.Standalone.of("h", 0))
        .hasMessage("redis port must be 1..65535: 0");
    assertThatThrownBy(
            () ->
                new RedisEndpoint.Standalone("h", 1, -1, false, Optional.empty(), Optional.empty()))
        .hasMessage("redis database must be >= 0: -1");
  }
}
