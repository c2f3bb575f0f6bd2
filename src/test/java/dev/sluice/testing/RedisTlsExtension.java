package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Redis serving TLS ({@code --tls-port}) for one test class, with a CA, a server certificate
 * and a client certificate the fixture makes with {@code openssl}. Its plain port stays open for
 * the fixture's own PING. Needs {@code redis-server} built with TLS (Debian's is) and {@code
 * openssl} on PATH.
 */
public final class RedisTlsExtension implements BeforeAllCallback, AfterAllCallback {
  private final String serverNames;
  private final boolean requireClientCert;
  private Path dir;
  private TestCertificates certificates;
  private Path serverCert;
  private Path clientCert;
  private int tlsPort;
  private RedisProcess server;

  /**
   * @param serverNames the server certificate's subjectAltName, e.g. {@code IP:127.0.0.1}; name
   *     another host to test that a client refuses it
   * @param requireClientCert {@code --tls-auth-clients yes} rather than {@code optional}
   */
  public RedisTlsExtension(String serverNames, boolean requireClientCert) {
    this.serverNames = serverNames;
    this.requireClientCert = requireClientCert;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    try {
      dir = Files.createTempDirectory("sluice-tls-");
      certificates = new TestCertificates(dir);
      serverCert = certificates.issue("server", serverNames);
      clientCert = certificates.issue("client", "DNS:sluice-client");
      tlsPort = RedisProcess.freePort();
      server =
          new RedisProcess(
              RedisTools.require("redis-server"),
              List.of(),
              List.of(
                  "--tls-port", Integer.toString(tlsPort),
                  "--tls-cert-file", serverCert.toString(),
                  "--tls-key-file", TestCertificates.keyOf(serverCert).toString(),
                  "--tls-ca-cert-file", certificates.ca().toString(),
                  "--tls-auth-clients", requireClientCert ? "yes" : "optional"));
      server.start();
    } catch (IOException e) {
      afterAll(context);
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      afterAll(context);
      throw e;
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (server != null) {
      server.close();
    }
    if (dir != null) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  public String host() {
    return server.host();
  }

  public int tlsPort() {
    return tlsPort;
  }

  /** The plain (non-TLS) port, for inspecting the server from a test. */
  public int plainPort() {
    return server.port();
  }

  /** The CA that signed the server and client certificates. */
  public Path ca() {
    return certificates.ca();
  }

  public Path clientCert() {
    return clientCert;
  }

  public Path clientKey() {
    return TestCertificates.keyOf(clientCert);
  }

  /** {@link #clientKey} rewritten as PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) by openssl. */
  public Path clientPkcs1Key() {
    return certificates.pkcs1KeyOf(clientCert);
  }

  /** Where a test can put more certificates (e.g. from another CA). */
  public Path dir() {
    return dir;
  }
}
