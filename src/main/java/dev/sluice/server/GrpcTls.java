package dev.sluice.server;

import dev.sluice.config.GrpcTlsConfig;
import dev.sluice.threads.Scheduler;
import dev.sluice.tls.PemPrivateKey;
import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.AdvancedTlsX509TrustManager;
import io.grpc.util.CertificateUtils;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS credentials for the RLS port whose certificate, key and client CA are re-read when their
 * content changes, so cert-manager can rotate them without a restart. New handshakes use the new
 * files; open connections keep theirs. A changed set that does not load (a half-written pair) is
 * logged and the previous credentials stay; the next poll tries again.
 *
 * <p>The polling is ours, not grpc-java's file watcher: that one never checks more often than once
 * a minute, and it only reloads when both files' modification times changed.
 */
public final class GrpcTls implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GrpcTls.class);

  private final GrpcTlsConfig config;
  private final AdvancedTlsX509KeyManager keys = new AdvancedTlsX509KeyManager();
  private final Optional<AdvancedTlsX509TrustManager> trust;
  private final ServerCredentials credentials;
  // Only the scheduler's single poll task touches it after construction.
  private byte[] loadedDigest;
  private Scheduler.Cancellable poll;

  private GrpcTls(GrpcTlsConfig config) throws IOException, GeneralSecurityException {
    this.config = config;
    TlsServerCredentials.Builder builder = TlsServerCredentials.newBuilder().keyManager(keys);
    if (config.clientCa().isPresent()) {
      AdvancedTlsX509TrustManager.Builder trustBuilder =
          AdvancedTlsX509TrustManager.newBuilder()
              // A client certificate names a client, not a host: there is no host name to check.
              .setVerification(
                  AdvancedTlsX509TrustManager.Verification.CERTIFICATE_ONLY_VERIFICATION);
      // Runs after the chain was verified against the client CA: only then is a SAN worth reading.
      config
          .clientSan()
          .ifPresent(san -> trustBuilder.setSslSocketAndEnginePeerVerifier(new ClientSan(san)));
      AdvancedTlsX509TrustManager clients = trustBuilder.build();
      builder.trustManager(clients).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
      this.trust = Optional.of(clients);
    } else {
      this.trust = Optional.empty();
    }
    this.credentials = builder.build();
    this.loadedDigest = load();
  }

  /**
   * Loads the files now and re-reads them every {@code refresh} on {@code scheduler}.
   *
   * @throws IllegalArgumentException naming the files when they cannot be read or parsed
   */
  public static GrpcTls open(GrpcTlsConfig config, Duration refresh, Scheduler scheduler) {
    GrpcTls tls;
    try {
      tls = new GrpcTls(config);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read gRPC TLS files " + describe(config), e);
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException(
          "invalid gRPC TLS files " + describe(config) + ": " + e.getMessage(), e);
    }
    tls.poll = scheduler.scheduleWithFixedDelay(tls::reloadIfChanged, refresh, refresh);
    return tls;
  }

  public ServerCredentials credentials() {
    return credentials;
  }

  /** Re-reads the files when their content changed since the last successful load. */
  void reloadIfChanged() {
    try {
      if (Arrays.equals(digest(), loadedDigest)) {
        return;
      }
      loadedDigest = load();
      log.info("gRPC TLS files reloaded: {}", describe(config));
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      log.warn(
          "gRPC TLS files {} not reloaded, serving the previous ones: {}",
          describe(config),
          e.toString());
    }
  }

  /** Loads every file; returns the digest of what was loaded. */
  private byte[] load() throws IOException, GeneralSecurityException {
    byte[] digest = digest();
    // Our key reader, not grpc's file overload: Envoy Gateway's keys are PKCS#1, grpc reads PKCS#8.
    try (InputStream chain = Files.newInputStream(config.cert())) {
      keys.updateIdentityCredentials(
          CertificateUtils.getX509Certificates(chain), PemPrivateKey.read(config.key()));
    }
    if (trust.isPresent()) {
      trust.get().updateTrustCredentials(config.clientCa().orElseThrow().toFile());
    }
    return digest;
  }

  private byte[] digest() throws IOException, GeneralSecurityException {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    sha.update(Files.readAllBytes(config.cert()));
    sha.update(Files.readAllBytes(config.key()));
    if (config.clientCa().isPresent()) {
      sha.update(Files.readAllBytes(config.clientCa().get()));
    }
    return sha.digest();
  }

  private static String describe(GrpcTlsConfig config) {
    return config.cert()
        + ", "
        + config.key()
        + config.clientCa().map(Path::toString).map(ca -> ", client CA " + ca).orElse("")
        + config.clientSan().map(san -> ", client SAN " + san).orElse("");
  }

  @Override
  public void close() {
    if (poll != null) {
      poll.cancel();
    }
  }
}
