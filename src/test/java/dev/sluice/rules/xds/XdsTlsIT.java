package dev.sluice.rules.xds;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.XdsConfig;
import dev.sluice.rules.xds.v3.RateLimitConfig;
import dev.sluice.rules.xds.v3.RateLimitDescriptor;
import dev.sluice.rules.xds.v3.RateLimitPolicy;
import dev.sluice.rules.xds.v3.RateLimitUnit;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import dev.sluice.testing.TestAdsServer;
import dev.sluice.testing.TestCertificates;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS to the xDS server ({@code --xds-tls-ca/--xds-tls-cert/--xds-tls-key/--xds-tls-san}) with
 * certificates made for the test: a management server that requires client certificates, whose own
 * certificate names {@code xds.test} only (not 127.0.0.1, which Sluice dials). Rules arrive with
 * the right CA, client certificate and SAN; the wrong SAN, a CA that did not sign the server, or no
 * client certificate each get no rules at all.
 */
class XdsTlsIT {
  private static final Duration WAIT = Duration.ofSeconds(15);

  @TempDir static Path dir;
  private static TestCertificates certs;
  private static Path serverCert;
  private static Path clientCert;
  private static Path otherCa;

  private final FakeClock clock = FakeClock.atEpochSecond(1_800_000_000L);
  private TestAdsServer ads;
  private RunningSluice sluice;

  @BeforeAll
  static void certificates() throws IOException {
    certs = new TestCertificates(dir);
    serverCert = certs.issue("xds-server", "DNS:xds.test");
    clientCert = certs.issue("sluice-client", "DNS:sluice.test");
    Path other = Files.createDirectories(dir.resolve("other"));
    otherCa = new TestCertificates(other).ca();
  }

  @AfterEach
  void stop() {
    if (sluice != null) {
      sluice.close();
    }
    ads.close();
  }

  private void start(XdsConfig.Tls tls) throws IOException {
    ServerCredentials credentials =
        TlsServerCredentials.newBuilder()
            .keyManager(serverCert.toFile(), TestCertificates.keyOf(serverCert).toFile())
            .trustManager(certs.ca().toFile())
            .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
            .build();
    ads = TestAdsServer.start(XdsRuleClient.TYPE_URL, credentials);
    ads.push("v1", config());
    XdsConfig xds =
        new XdsConfig(
            ads.target(),
            "default",
            "{}",
            tls,
            Map.of(),
            new XdsConfig.Backoff(Duration.ofMillis(50), Duration.ofMillis(200), 0.5),
            4 << 20,
            true);
    sluice =
        RunningSluice.start(
            "domain: from-files\n",
            RunningSluice.config(RunningSluice.memoryStore()).toBuilder().ruleSource(xds).build(),
            clock);
  }

  private static XdsConfig.Tls tls(Path ca, boolean clientCertificate, String san) {
    return new XdsConfig.Tls(
        true,
        Optional.of(ca),
        clientCertificate ? Optional.of(clientCert) : Optional.empty(),
        clientCertificate ? Optional.of(TestCertificates.keyOf(clientCert)) : Optional.empty(),
        Optional.of(san));
  }

  @Test
  void mutualTls_rightCaCertAndSan_receivesAndServesTheRules() throws IOException {
    start(tls(certs.ca(), true, "xds.test"));

    assertThat(ads.answerTo(ads.lastNonce(), WAIT).getVersionInfo()).isEqualTo("v1");
    assertThat(codes(3)).containsExactly(Code.OK, Code.OK, Code.OVER_LIMIT);
  }

  @Test
  void wrongSan_refusesTheServerAndGetsNoRules() throws IOException {
    start(tls(certs.ca(), true, "other.test"));

    assertNoRules();
  }

  @Test
  void caThatDidNotSignTheServer_refusesItAndGetsNoRules() throws IOException {
    start(tls(otherCa, true, "xds.test"));

    assertNoRules();
  }

  @Test
  void noClientCertificate_isRefusedByTheServerAndGetsNoRules() throws IOException {
    start(tls(certs.ca(), false, "xds.test"));

    assertNoRules();
  }

  /**
   * Several reconnect attempts (backoff 50..200 ms) in this second; none may get through. A
   * handshake that wrongly succeeds sends its first request within milliseconds (the mutual-TLS
   * test gets its rules in 0.1 s), so waiting longer would prove nothing more.
   */
  private void assertNoRules() {
    assertThat(ads.anyRequestWithin(Duration.ofSeconds(1))).isFalse();
    assertThat(codes(3)).containsOnly(Code.OK);
  }

  private static RateLimitConfig config() {
    return RateLimitConfig.newBuilder()
        .setName("edge-config")
        .setDomain("edge")
        .addDescriptors(
            RateLimitDescriptor.newBuilder()
                .setKey("user")
                .setRateLimit(
                    RateLimitPolicy.newBuilder()
                        .setUnit(RateLimitUnit.MINUTE)
                        .setRequestsPerUnit(2)))
        .build();
  }

  private List<Code> codes(int times) {
    List<Code> codes = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      codes.add(
          sluice
              .rls()
              .shouldRateLimit(request("edge", descriptor("user", "alice")))
              .getOverallCode());
    }
    return codes;
  }
}
