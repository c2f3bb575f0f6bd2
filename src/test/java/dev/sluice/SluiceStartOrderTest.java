package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.CaptureConfig;
import dev.sluice.config.ReferenceMetricsConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.XdsConfig;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order the composition root starts its parts in, which is the reverse of the order it closes
 * them in: each part may use only parts started before it.
 */
class SluiceStartOrderTest {
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: 3}
      """;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);

  @TempDir Path dir;

  private static ServeConfig defaults() {
    return RunningSluice.config(RunningSluice.memoryStore());
  }

  @Test
  void start_fileRulesMemoryStore_schedulerFirstHealthUpdatesLast() {
    try (RunningSluice sluice = RunningSluice.start(RULES, defaults(), clock)) {
      assertThat(sluice.sluice().startedParts())
          .containsExactly(
              "scheduler",
              "rule reloader",
              "tracing",
              "limiter stack",
              "grpc transport report",
              "grpc server",
              "admin http server",
              "rule watch",
              "health updates");
    }
  }

  @Test
  void start_captureAndAdminGrpc_captureBeforeTheRlsPortAdminGrpcBeforeAdminHttp() {
    CaptureConfig capture =
        new CaptureConfig(
            Optional.of(dir.resolve("capture.jsonl")),
            1.0,
            false,
            CaptureConfig.DEFAULT_MAX_BYTES,
            CaptureConfig.DEFAULT_MAX_FILES);
    ServeConfig config =
        RunningSluice.withAdminToken(defaults(), false).toBuilder().capture(capture).build();

    try (RunningSluice sluice = RunningSluice.start(RULES, config, clock)) {
      assertThat(sluice.sluice().startedParts())
          .containsExactly(
              "scheduler",
              "rule reloader",
              "tracing",
              "limiter stack",
              "capture writer",
              "grpc transport report",
              "grpc server",
              "admin grpc server",
              "admin http server",
              "rule watch",
              "health updates");
    }
  }

  @Test
  void start_referenceMetrics_listenerAfterTheAdminPort() {
    ServeConfig config =
        defaults().toBuilder()
            .referenceMetrics(
                new ReferenceMetricsConfig(
                    ReferenceMetricsConfig.parseAddress("127.0.0.1:0"),
                    "/metrics",
                    Optional.empty(),
                    false))
            .build();

    try (RunningSluice sluice = RunningSluice.start(RULES, config, clock)) {
      assertThat(sluice.sluice().startedParts())
          .containsExactly(
              "scheduler",
              "rule reloader",
              "tracing",
              "limiter stack",
              "grpc transport report",
              "grpc server",
              "admin http server",
              "reference metrics server",
              "rule watch",
              "health updates");
      assertThat(sluice.sluice().referenceMetricsPort()).isPresent();
    }
  }

  @Test
  void start_xdsRules_xdsThreadThenClientInsteadOfTheWatch() {
    // Nothing listens on port 1: the client keeps reconnecting, Sluice serves without rules.
    ServeConfig config =
        defaults().toBuilder().ruleSource(XdsConfig.plaintext("127.0.0.1:1")).build();

    try (RunningSluice sluice = RunningSluice.start(RULES, config, clock)) {
      assertThat(sluice.sluice().startedParts())
          .containsExactly(
              "scheduler",
              "rule reloader",
              "tracing",
              "limiter stack",
              "grpc transport report",
              "grpc server",
              "admin http server",
              "xds thread",
              "xds client",
              "health updates");
    }
  }

  @Test
  void close_closesEveryPart() {
    RunningSluice sluice = RunningSluice.start(RULES, defaults(), clock);

    sluice.close();

    assertThat(sluice.sluice().startedParts()).isEmpty();
  }
}
