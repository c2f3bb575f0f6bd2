package dev.sluice.cli;

import dev.sluice.config.AccessConfig;
import dev.sluice.config.GrpcTlsConfig;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import picocli.CommandLine.Option;

/**
 * Who may reach what: the addresses the ports listen on, the admin gRPC port and its token, and TLS
 * / mTLS on the RLS port. Pairs of flags that only make sense together are checked here.
 */
final class AccessOptions {
  @Option(
      names = "--grpc-bind",
      defaultValue = "${env:SLUICE_GRPC_BIND:-0.0.0.0}",
      description =
          "Address the RLS gRPC port listens on (env SLUICE_GRPC_BIND, default ${DEFAULT-VALUE}).")
  String grpcBind;

  @Option(
      names = "--http-bind",
      defaultValue = "${env:SLUICE_HTTP_BIND:-0.0.0.0}",
      description =
          "Address the admin HTTP (and admin gRPC) port listens on; 127.0.0.1 closes it to the host (env SLUICE_HTTP_BIND, default ${DEFAULT-VALUE}).")
  String httpBind;

  @Option(
      names = "--admin-grpc-port",
      defaultValue = "${env:SLUICE_ADMIN_GRPC_PORT:-off}",
      description =
          "Port of the sluice.admin.v1.SluiceAdmin gRPC API, 'off' or 0..65535; never the RLS port (env SLUICE_ADMIN_GRPC_PORT, default ${DEFAULT-VALUE}).")
  String adminGrpcPort;

  @Option(
      names = "--debug-port",
      defaultValue = "${env:SLUICE_DEBUG_PORT:-off}",
      description =
          "Port of a second HTTP listener serving /rlconfig, as envoyproxy/ratelimit's debug port"
              + " (DEBUG_PORT) does, bound to --http-bind; 'off' or 0..65535 (env"
              + " SLUICE_DEBUG_PORT, default ${DEFAULT-VALUE}).")
  String debugPort;

  @Option(
      names = "--admin-token-file",
      defaultValue = "${env:SLUICE_ADMIN_TOKEN_FILE:-}",
      description =
          "File holding the bearer token admin writes need; without it writes are refused (env SLUICE_ADMIN_TOKEN_FILE, default none).")
  String adminTokenFile;

  @Option(
      names = "--admin-token-for-reads",
      arity = "0..1",
      defaultValue = "${env:SLUICE_ADMIN_TOKEN_FOR_READS:-false}",
      description =
          "Admin reads (rules, counters, metrics, health, /json) need the token too (env SLUICE_ADMIN_TOKEN_FOR_READS, default ${DEFAULT-VALUE}).")
  boolean adminTokenForReads;

  @Option(
      names = "--grpc-tls-cert",
      defaultValue = "${env:SLUICE_GRPC_TLS_CERT:-}",
      description =
          "PEM certificate chain: serve the RLS port over TLS; re-read when it changes (env SLUICE_GRPC_TLS_CERT, default none).")
  String grpcTlsCert;

  @Option(
      names = "--grpc-tls-key",
      defaultValue = "${env:SLUICE_GRPC_TLS_KEY:-}",
      description =
          "PEM private key (PKCS#8 or PKCS#1 RSA) of --grpc-tls-cert (env SLUICE_GRPC_TLS_KEY, default none).")
  String grpcTlsKey;

  @Option(
      names = "--grpc-tls-client-ca",
      defaultValue = "${env:SLUICE_GRPC_TLS_CLIENT_CA:-}",
      description =
          "PEM CA: RLS clients must present a certificate it signed (mTLS) (env SLUICE_GRPC_TLS_CLIENT_CA, default none).")
  String grpcTlsClientCa;

  @Option(
      names = "--grpc-tls-client-san",
      defaultValue = "${env:SLUICE_GRPC_TLS_CLIENT_SAN:-}",
      description =
          "With --grpc-tls-client-ca: only client certificates carrying this DNS name or IP address"
              + " as a subject alternative name are accepted (env SLUICE_GRPC_TLS_CLIENT_SAN,"
              + " default none).")
  String grpcTlsClientSan;

  /** The validated access settings; a flag pair used half-way is an IllegalArgumentException. */
  AccessConfig toConfig() {
    Optional<Path> cert = path(grpcTlsCert);
    Optional<Path> key = path(grpcTlsKey);
    if (cert.isPresent() != key.isPresent()) {
      throw new IllegalArgumentException("--grpc-tls-cert and --grpc-tls-key go together");
    }
    if (cert.isEmpty() && !grpcTlsClientCa.isEmpty()) {
      throw new IllegalArgumentException(
          "--grpc-tls-client-ca needs --grpc-tls-cert and --grpc-tls-key");
    }
    if (!grpcTlsClientSan.isEmpty() && grpcTlsClientCa.isEmpty()) {
      throw new IllegalArgumentException("--grpc-tls-client-san needs --grpc-tls-client-ca");
    }
    Optional<String> san =
        grpcTlsClientSan.isEmpty() ? Optional.empty() : Optional.of(grpcTlsClientSan);
    Optional<GrpcTlsConfig> tls =
        cert.map(c -> new GrpcTlsConfig(c, key.get(), path(grpcTlsClientCa), san));
    return new AccessConfig(
        grpcBind,
        httpBind,
        optionalPort("--admin-grpc-port", adminGrpcPort),
        path(adminTokenFile),
        adminTokenForReads,
        tls,
        optionalPort("--debug-port", debugPort));
  }

  private static OptionalInt optionalPort(String flag, String value) {
    if (value.equalsIgnoreCase("off")) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(value));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " must be 'off' or a port number: " + value);
    }
  }

  private static Optional<Path> path(String value) {
    return value.isEmpty() ? Optional.empty() : Optional.of(Path.of(value));
  }
}
