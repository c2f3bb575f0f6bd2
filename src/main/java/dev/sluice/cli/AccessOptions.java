package dev.sluice.cli;

import dev.sluice.config.AccessConfig;
import dev.sluice.config.AccessSettings;
import dev.sluice.config.GrpcTlsConfig;
import dev.sluice.config.SettingValues;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Who may reach what: the addresses the ports listen on, the admin gRPC port and its token, and TLS
 * / mTLS on the RLS port. Pairs of flags that only make sense together are checked here.
 */
final class AccessOptions {
  private final SettingValues values;

  AccessOptions(SettingValues values) {
    this.values = values;
  }

  /** The validated access settings; a flag pair used half-way is an IllegalArgumentException. */
  AccessConfig toConfig() {
    Optional<Path> cert = path(values.get(AccessSettings.GRPC_TLS_CERT));
    Optional<Path> key = path(values.get(AccessSettings.GRPC_TLS_KEY));
    if (cert.isPresent() != key.isPresent()) {
      throw new IllegalArgumentException("--grpc-tls-cert and --grpc-tls-key go together");
    }
    if (cert.isEmpty() && !values.get(AccessSettings.GRPC_TLS_CLIENT_CA).isEmpty()) {
      throw new IllegalArgumentException(
          "--grpc-tls-client-ca needs --grpc-tls-cert and --grpc-tls-key");
    }
    if (!values.get(AccessSettings.GRPC_TLS_CLIENT_SAN).isEmpty()
        && values.get(AccessSettings.GRPC_TLS_CLIENT_CA).isEmpty()) {
      throw new IllegalArgumentException("--grpc-tls-client-san needs --grpc-tls-client-ca");
    }
    Optional<String> san =
        values.get(AccessSettings.GRPC_TLS_CLIENT_SAN).isEmpty()
            ? Optional.empty()
            : Optional.of(values.get(AccessSettings.GRPC_TLS_CLIENT_SAN));
    Optional<GrpcTlsConfig> tls =
        cert.map(
            c ->
                new GrpcTlsConfig(
                    c, key.get(), path(values.get(AccessSettings.GRPC_TLS_CLIENT_CA)), san));
    return new AccessConfig(
        values.get(AccessSettings.GRPC_BIND),
        values.get(AccessSettings.HTTP_BIND),
        optionalPort("--admin-grpc-port", values.get(AccessSettings.ADMIN_GRPC_PORT)),
        path(values.get(AccessSettings.ADMIN_TOKEN_FILE)),
        values.get(AccessSettings.ADMIN_TOKEN_FOR_READS),
        tls,
        optionalPort("--debug-port", values.get(AccessSettings.DEBUG_PORT)));
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
