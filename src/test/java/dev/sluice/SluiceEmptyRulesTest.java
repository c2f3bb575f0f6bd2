package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.RulesConfig;
import dev.sluice.config.RulesSettings;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.ServeSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve} with zero rules (issue 11 item 5): refused unless --allow-empty-rules. */
class SluiceEmptyRulesTest {
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);

  private ServeConfig config(boolean allowEmpty) {
    return RunningSluice.config(RunningSluice.memoryStore()).toBuilder()
        .rules(
            RulesConfig.from(
                SettingValues.builder()
                    .set(RulesSettings.CONFIG, dir)
                    .set(ServeSettings.RELOAD_INTERVAL, Duration.ofSeconds(1))
                    .set(RulesSettings.ALLOW_EMPTY_RULES, allowEmpty)
                    .build()))
        .build();
  }

  @Test
  void start_emptyRuleDirectory_failsWithTheReason() {
    assertThatThrownBy(() -> Sluice.start(config(false), clock))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("no rules found")
        .hasMessageContaining("--allow-empty-rules");
  }

  @Test
  void healthNeedsRules_unhealthyUntilAFileBringsADomain() throws Exception {
    ServeConfig config = config(true);
    config =
        config.toBuilder()
            .server(config.server().toBuilder().healthNeedsRules(true).build())
            .build();
    try (Sluice sluice = Sluice.start(config, clock)) {
      assertThat(healthcheck(sluice).statusCode()).isEqualTo(503);
      assertThat(healthcheck(sluice).body()).contains("no rules loaded");

      Files.writeString(
          dir.resolve("a.yaml"),
          """
          domain: a
          descriptors:
            - key: k
              rate_limit: {unit: second, requests_per_unit: 1}
          """);
      Eventually.await(
          Duration.ofSeconds(10),
          "healthy after the reload",
          () -> healthcheck(sluice).statusCode() == 200);

      Files.delete(dir.resolve("a.yaml"));
      Eventually.await(
          Duration.ofSeconds(10),
          "unhealthy again with zero domains",
          () -> healthcheck(sluice).statusCode() == 503);
    }
  }

  @Test
  void emptyRulesAllowed_withoutHealthNeedsRules_healthy() throws Exception {
    try (Sluice sluice = Sluice.start(config(true), clock)) {
      assertThat(healthcheck(sluice).statusCode()).isEqualTo(200);
    }
  }

  private static HttpResponse<String> healthcheck(Sluice sluice) {
    try {
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + sluice.httpPort() + "/healthcheck"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException | InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void start_emptyRuleDirectoryAllowed_starts() {
    try (Sluice sluice = Sluice.start(config(true), clock)) {
      assertThat(sluice.grpcPort()).isPositive();
    }
  }
}
