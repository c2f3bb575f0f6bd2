package dev.sluice.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * TLS on the RLS gRPC port. The files are PEM and re-read when they change on disk (checked every
 * rule reload interval), so a rotated certificate is served without a restart.
 *
 * @param cert the server's certificate chain
 * @param key its private key (PEM, PKCS#8 or PKCS#1 RSA)
 * @param clientCa when present, clients must present a certificate signed by it (mTLS)
 * @param clientSan when present (needs {@code clientCa}), that certificate must also carry this DNS
 *     name or IP address among its subject alternative names (the reference's GRPC_CLIENT_TLS_SAN)
 */
public record GrpcTlsConfig(
    Path cert, Path key, Optional<Path> clientCa, Optional<String> clientSan) {
  public GrpcTlsConfig {
    Objects.requireNonNull(cert, "cert");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(clientCa, "clientCa");
    Objects.requireNonNull(clientSan, "clientSan");
    if (clientSan.isPresent() && clientCa.isEmpty()) {
      throw new IllegalArgumentException("a client SAN needs a client CA (mTLS)");
    }
    if (clientSan.isPresent() && clientSan.get().isBlank()) {
      throw new IllegalArgumentException("client SAN must not be blank");
    }
  }
}
