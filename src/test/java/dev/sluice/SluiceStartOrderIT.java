package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.GrpcTlsConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import dev.sluice.testing.TestCertificates;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start order with TLS on the RLS port, whose certificates come from openssl. */
class SluiceStartOrderIT {
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: 3}
      """;

  @TempDir Path dir;

  @Test
  void start_grpcTls_theCredentialsStartJustBeforeTheRlsPort() {
    TestCertificates ca = new TestCertificates(dir);
    Path cert = ca.issue("server", "DNS:localhost,IP:127.0.0.1");
    ServeConfig config = RunningSluice.config(RunningSluice.memoryStore());
    GrpcTlsConfig tls =
        new GrpcTlsConfig(cert, TestCertificates.keyOf(cert), Optional.empty(), Optional.empty());
    config =
        RunningSluice.withAdminToken(
            config.toBuilder()
                .server(
                    config.server().toBuilder()
                        .access(
                            config.server().access().toBuilder().grpcTls(Optional.of(tls)).build())
                        .build())
                .build(),
            false);

    try (RunningSluice sluice =
        RunningSluice.start(RULES, config, FakeClock.atEpochSecond(1_700_000_000L))) {
      assertThat(sluice.sluice().startedParts())
          .containsExactly(
              "scheduler",
              "rule reloader",
              "tracing",
              "limiter stack",
              "rlqs",
              "rlqs turns",
              "grpc transport report",
              "grpc tls",
              "grpc server",
              "admin grpc server",
              "admin http server",
              "rule watch",
              "health updates");
    }
  }
}
