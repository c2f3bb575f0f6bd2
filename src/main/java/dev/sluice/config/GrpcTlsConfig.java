package dev.sluice.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * TLS on the RLS gRPC port. The files are PEM and re-read when they change on disk (checked every
 * rule reload interval), so a rotated certificate is served without a restart.
 *
 * @param cert the server's certificate chain
 * @param key its private key (PKCS#8)
 * @param clientCa when present, clients must present a certificate signed by it (mTLS)
 */
public record GrpcTlsConfig(Path cert, Path key, Optional<Path> clientCa) {
  public GrpcTlsConfig {
    Objects.requireNonNull(cert, "cert");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(clientCa, "clientCa");
  }
}
