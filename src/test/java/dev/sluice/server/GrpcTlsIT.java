package dev.sluice.server;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.GrpcTlsConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import dev.sluice.testing.TestCertificates;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS and mTLS on the RLS port with certificates made by openssl, and a certificate rotated on disk
 * while Sluice runs.
 */
class GrpcTlsIT {
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: minute, requests_per_unit: 100}
      """;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private static final String LOCAL = "DNS:localhost,IP:127.0.0.1";

  @TempDir Path dir;
  private TestCertificates ca;
  private Pair server;
  private RunningSluice sluice;

  /** A certificate and its key. */
  private record Pair(Path cert, Path key) {
    static Pair issued(TestCertificates by, String name) {
      Path cert = by.issue(name, LOCAL);
      return new Pair(cert, TestCertificates.keyOf(cert));
    }

    /** Replaces {@code target}'s files with these, as a rotation on disk would. */
    void copyTo(Pair target) throws IOException {
      Files.copy(key, target.key(), StandardCopyOption.REPLACE_EXISTING);
      Files.copy(cert, target.cert(), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** A new CA of its own, in its own directory. */
  private TestCertificates newCa(String name) throws IOException {
    return new TestCertificates(Files.createDirectories(dir.resolve(name)));
  }

  @BeforeEach
  void certificates() throws IOException {
    ca = newCa("ca");
    server = Pair.issued(ca, "server");
  }

  @AfterEach
  void stop() {
    if (sluice != null) {
      sluice.close();
    }
  }

  private void start(Optional<TestCertificates> clientCa) {
    start(clientCa, Optional.empty());
  }

  private void start(Optional<TestCertificates> clientCa, Optional<String> clientSan) {
    ServeConfig config = RunningSluice.config(RunningSluice.memoryStore());
    GrpcTlsConfig tls =
        new GrpcTlsConfig(
            server.cert(), server.key(), clientCa.map(TestCertificates::ca), clientSan);
    sluice =
        RunningSluice.start(
            RULES,
            config.toBuilder()
                .server(
                    config.server().toBuilder()
                        .access(
                            config.server().access().toBuilder().grpcTls(Optional.of(tls)).build())
                        .build())
                .build(),
            clock);
  }

  private RateLimitResponse.Code ask(ChannelCredentials credentials) {
    ManagedChannel channel =
        Grpc.newChannelBuilderForAddress("localhost", sluice.sluice().grpcPort(), credentials)
            .build();
    try {
      return RateLimitServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .shouldRateLimit(request("api", descriptor("user", "u")))
          .getOverallCode();
    } finally {
      channel.shutdownNow();
    }
  }

  private static ChannelCredentials trusting(TestCertificates ca) {
    try {
      return TlsChannelCredentials.newBuilder().trustManager(ca.ca().toFile()).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ChannelCredentials trustingWithClientCert(TestCertificates ca, Pair client) {
    try {
      return TlsChannelCredentials.newBuilder()
          .trustManager(ca.ca().toFile())
          .keyManager(client.cert().toFile(), client.key().toFile())
          .build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void tls_clientTrustingTheCa_isAnswered_plaintextClientFails() {
    start(Optional.empty());
    assertThat(ask(trusting(ca))).isEqualTo(RateLimitResponse.Code.OK);
    assertThatThrownBy(
            () ->
                sluice
                    .rls()
                    .withDeadlineAfter(5, TimeUnit.SECONDS)
                    .shouldRateLimit(request("api", descriptor("user", "u"))))
        .isInstanceOf(StatusRuntimeException.class);
  }

  @Test
  void mtls_clientWithoutACertificateFails_withOneSignedByTheClientCaIsAnswered()
      throws IOException {
    TestCertificates clientCa = newCa("client-ca");
    Pair client = Pair.issued(clientCa, "client");
    Pair stranger = Pair.issued(newCa("other-ca"), "stranger");
    start(Optional.of(clientCa));
    assertThatThrownBy(() -> ask(trusting(ca))).isInstanceOf(StatusRuntimeException.class);
    assertThatThrownBy(() -> ask(trustingWithClientCert(ca, stranger)))
        .isInstanceOf(StatusRuntimeException.class);
    assertThat(ask(trustingWithClientCert(ca, client))).isEqualTo(RateLimitResponse.Code.OK);
  }

  @Test
  void clientSan_onlyCertificatesNamingItAreAccepted() throws IOException {
    TestCertificates clientCa = newCa("client-ca");
    Path named = clientCa.issue("envoy", "DNS:envoy.mesh.local,DNS:other.example");
    Path wildcard = clientCa.issue("wild", "DNS:*.mesh.local");
    Path otherName = clientCa.issue("intruder", "DNS:intruder.mesh.evil");
    Path commonNameOnly = clientCa.issue("envoy.mesh.local", "DNS:unrelated.example");
    // The attack: a certificate from another CA that does carry the right name.
    Path foreign = newCa("other-ca").issue("forged", "DNS:envoy.mesh.local");
    start(Optional.of(clientCa), Optional.of("envoy.mesh.local"));

    assertThat(ask(trustingWithClientCert(ca, pair(named)))).isEqualTo(RateLimitResponse.Code.OK);
    assertThat(ask(trustingWithClientCert(ca, pair(wildcard))))
        .isEqualTo(RateLimitResponse.Code.OK);
    assertThatThrownBy(() -> ask(trustingWithClientCert(ca, pair(otherName))))
        .isInstanceOf(StatusRuntimeException.class);
    assertThatThrownBy(() -> ask(trustingWithClientCert(ca, pair(commonNameOnly))))
        .as("the common name does not count")
        .isInstanceOf(StatusRuntimeException.class);
    assertThatThrownBy(() -> ask(trustingWithClientCert(ca, pair(foreign))))
        .isInstanceOf(StatusRuntimeException.class);
    assertThatThrownBy(() -> ask(trusting(ca))).isInstanceOf(StatusRuntimeException.class);
  }

  @Test
  void clientSan_ipAddress_matchesAnIpSan() throws IOException {
    TestCertificates clientCa = newCa("client-ca");
    Path byIp = clientCa.issue("by-ip", "IP:10.1.2.3");
    Path byDns = clientCa.issue("by-dns", "DNS:10.1.2.4.example");
    start(Optional.of(clientCa), Optional.of("10.1.2.3"));

    assertThat(ask(trustingWithClientCert(ca, pair(byIp)))).isEqualTo(RateLimitResponse.Code.OK);
    assertThatThrownBy(() -> ask(trustingWithClientCert(ca, pair(byDns))))
        .isInstanceOf(StatusRuntimeException.class);
  }

  private static Pair pair(Path cert) {
    return new Pair(cert, TestCertificates.keyOf(cert));
  }

  @Test
  void rotation_newCertificateOnDisk_isServedWithoutARestart() throws IOException {
    start(Optional.empty());
    TestCertificates newCa = newCa("new-ca");
    Pair rotated = Pair.issued(newCa, "rotated");
    assertThatThrownBy(() -> ask(trusting(newCa)))
        .as("the new CA did not sign the certificate served now")
        .isInstanceOf(StatusRuntimeException.class);

    rotated.copyTo(server);
    assertThat(Files.readString(server.cert())).isEqualTo(Files.readString(rotated.cert()));
    Eventually.await(
        Duration.ofSeconds(20),
        "the rotated certificate to be served",
        () -> {
          try {
            return ask(trusting(newCa)) == RateLimitResponse.Code.OK;
          } catch (StatusRuntimeException e) {
            return false;
          }
        });
    assertThatThrownBy(() -> ask(trusting(ca)))
        .as("the old certificate is no longer served")
        .isInstanceOf(StatusRuntimeException.class);
  }
}
