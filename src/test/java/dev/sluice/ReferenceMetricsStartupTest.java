package dev.sluice;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ReferenceMetricsConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A mapper file Sluice cannot serve stops startup with its file, line and problem. */
class ReferenceMetricsStartupTest {
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: 3}
      """;

  @TempDir Path dir;

  @Test
  void start_mapperWithAnUnsupportedKey_failsNamingFileLineAndKey() throws Exception {
    Path mapper =
        Files.writeString(
            dir.resolve("conf.yaml"),
            """
            mappings:
              - match: ratelimit.service.rate_limit.*.*.total_hits
                name: hits
                ttl: 1m
            """);
    ServeConfig config =
        RunningSluice.config(RunningSluice.memoryStore()).toBuilder()
            .referenceMetrics(
                new ReferenceMetricsConfig(
                    ReferenceMetricsConfig.parseAddress("127.0.0.1:0"),
                    "/metrics",
                    Optional.of(mapper),
                    false))
            .build();

    assertThatThrownBy(
            () -> RunningSluice.start(RULES, config, FakeClock.atEpochSecond(1_700_000_000L)))
        .isInstanceOf(StartupException.class)
        .hasMessageStartingWith(
            "reference metrics mapper: " + mapper + ":4: 'ttl' is not supported");
  }
}
