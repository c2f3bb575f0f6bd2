package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ServeConfigTest {
  /** A tree with every part set, holding a Redis password. */
  static ServeConfig withPassword(String password) {
    RedisConfig redis =
        RedisConfig.builder(
                RedisEndpoint.parse("rediss://app:" + password + "@cache.internal:6380/2"))
            .timeout(Duration.ofMillis(10))
            .connections(2)
            .keyPrefix("edge:")
            .build();
    return ServeConfig.builder()
        .rules(
            new RulesConfig(
                Path.of("config/rules"), Duration.ofSeconds(1), Algorithm.FIXED_WINDOW, Set.of()))
        .store(StoreConfig.redis(redis))
        .server(
            ServerConfig.from(SettingValues.builder().set(ServerSettings.GRPC_THREADS, 8).build()))
        .build();
  }

  @Test
  void toString_wholeTree_masksTheRedisPassword() {
    String text = withPassword("hunter2").toString();
    assertThat(text)
        .doesNotContain("hunter2")
        .contains("rediss://app:***@cache.internal:6380/2")
        .contains("keyPrefix=edge:")
        .contains("grpcThreads=8");
  }

  @Test
  void secret_toStringAndRecordsHoldingIt_neverShowTheValue() {
    Secret secret = Secret.of("hunter2");
    assertThat(secret.toString()).isEqualTo("***");
    assertThat(secret.reveal()).isEqualTo("hunter2");
    assertThat(String.valueOf(new Object[] {secret}[0])).isEqualTo("***");
  }

  @Test
  void equalTrees_areEqual_soASettingCanBeComparedWhole() {
    assertThat(withPassword("a")).isEqualTo(withPassword("a")).isNotEqualTo(withPassword("b"));
  }
}
