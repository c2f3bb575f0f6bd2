package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
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
        "redis://a:hunter2@h o st | must name a host",
        "http://localhost:6379/x  | must start with redis://",
        "redis-cluster://h1:1,,h2:2 | must name a host",
        "redis-cluster://h1:1/3   | a cluster has only database 0",
        "redis-sentinel://:hunter2@s1:26379 | must name the master",
        "unix://relative.sock     | absolute socket path",
        "unix:///tmp/r.sock?database=1 | db=N",
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

  @Test
  void unix_withDatabaseAndCredentials() {
    assertThat(RedisEndpoint.parse("unix:///run/redis/redis.sock?db=3"))
        .isEqualTo(
            new RedisEndpoint.Unix(
                Path.of("/run/redis/redis.sock"), 3, Optional.empty(), Optional.empty()));
    RedisEndpoint withUser = RedisEndpoint.parse("unix://app:pw@/tmp/r.sock");
    assertThat(withUser.user()).contains("app");
    assertThat(withUser.password()).contains(Secret.of("pw"));
    assertThat(withUser.address()).isEqualTo("/tmp/r.sock");
  }

  @Test
  void cluster_seedsWithDefaultPorts_andIpv6() {
    RedisEndpoint endpoint = RedisEndpoint.parse("rediss-cluster://app:pw@h1:7000,h2,[::1]:7002");
    assertThat(endpoint)
        .isEqualTo(
            new RedisEndpoint.Cluster(
                List.of(
                    new RedisEndpoint.Node("h1", 7000),
                    new RedisEndpoint.Node("h2", 6379),
                    new RedisEndpoint.Node("::1", 7002)),
                true,
                Optional.of("app"),
                Optional.of(Secret.of("pw"))));
    assertThat(endpoint.toString())
        .isEqualTo("rediss-cluster://app:***@h1:7000,h2:6379,[::1]:7002");
  }

  @Test
  void sentinel_sentinelsAndMasterName() {
    RedisEndpoint endpoint = RedisEndpoint.parse("redis-sentinel://:pw@s1:26380,s2/mymaster");
    assertThat(endpoint)
        .isEqualTo(
            new RedisEndpoint.Sentinel(
                List.of(new RedisEndpoint.Node("s1", 26380), new RedisEndpoint.Node("s2", 26379)),
                "mymaster",
                false,
                Optional.empty(),
                Optional.of(Secret.of("pw"))));
    assertThat(RedisEndpoint.parse("rediss-sentinel://s1/m").tls()).isTrue();
    assertThat(endpoint.address()).isEqualTo("master 'mymaster' of sentinels s1:26380,s2:26379");
  }

  @Test
  void passwordWithPlus_isLiteral_andUserWithoutPasswordHasNone() {
    assertThat(RedisEndpoint.parse("redis://:a+b@h").password()).contains(Secret.of("a+b"));
    RedisEndpoint userOnly = RedisEndpoint.parse("redis://app:@h");
    assertThat(userOnly.user()).contains("app");
    assertThat(userOnly.password()).isEmpty();
    assertThat(RedisEndpoint.parse(userOnly.toString())).isEqualTo(userOnly);
  }

  @Test
  void everyForm_toStringAndAddress_neverShowThePassword() {
    for (String url :
        List.of(
            "redis://app:hunter2@localhost:6379",
            "unix://app:hunter2@/tmp/redis.sock",
            "redis-cluster://app:hunter2@h1:1,h2:2",
            "redis-sentinel://app:hunter2@h1:1/m")) {
      RedisEndpoint endpoint = RedisEndpoint.parse(url);
      assertThat(endpoint.toString()).doesNotContain("hunter2").contains("app:***@");
      assertThat(endpoint.address()).doesNotContain("hunter2").doesNotContain("app");
      assertThat(RedisEndpoint.parse(endpoint.toString().replace("***", "hunter2")))
          .isEqualTo(endpoint);
    }
  }

  @Test
  void config_toString_masksDataAndSentinelPasswords() {
    RedisConfig config =
        RedisConfig.of("redis-sentinel://app:hunter2@s1/m").toBuilder()
            .sentinelPassword(Optional.of(Secret.of("sentinel-secret")))
            .build();
    assertThat(config.toString()).doesNotContain("hunter2").doesNotContain("sentinel-secret");
  }

  @Test
  void tls_certWithoutKey_isRejected() {
    assertThatThrownBy(
            () ->
                new RedisTls(
                    Optional.empty(), Optional.of(Path.of("c.pem")), Optional.empty(), false))
        .hasMessageContaining("--redis-tls-cert and --redis-tls-key go together");
  }
}
