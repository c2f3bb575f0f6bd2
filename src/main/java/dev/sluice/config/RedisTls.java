package dev.sluice.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How a TLS connection ({@code rediss...} URLs) trusts the server and proves the client. PEM files
 * only. The server's certificate is checked against the CA (the JVM's trust store without one) and
 * against the host name Sluice connected to, unless {@code insecure}.
 *
 * @param ca the CA certificates the server's chain must end in; empty: the JVM's defaults
 * @param clientCert a client certificate chain, for servers that require one; with {@code
 *     clientKey}
 * @param clientKey the client certificate's private key, unencrypted PKCS#8 ({@code BEGIN PRIVATE
 *     KEY}) or PKCS#1 RSA ({@code BEGIN RSA PRIVATE KEY})
 * @param insecure no verification at all: any certificate for any name is accepted (logged as a
 *     warning)
 */
public record RedisTls(
    Optional<Path> ca, Optional<Path> clientCert, Optional<Path> clientKey, boolean insecure) {
  public static final RedisTls DEFAULTS =
      new RedisTls(Optional.empty(), Optional.empty(), Optional.empty(), false);

  public RedisTls {
    Objects.requireNonNull(ca, "ca");
    Objects.requireNonNull(clientCert, "clientCert");
    Objects.requireNonNull(clientKey, "clientKey");
    if (clientCert.isPresent() != clientKey.isPresent()) {
      throw new IllegalArgumentException(
          "--redis-tls-cert and --redis-tls-key go together: got only "
              + (clientCert.isPresent() ? "the certificate" : "the key"));
    }
  }
}
