package dev.sluice.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Who can reach what: listen addresses, the admin gRPC port, the admin token and TLS on the RLS
 * port.
 *
 * @param grpcBind address the RLS gRPC port listens on ({@code 0.0.0.0} = every interface)
 * @param httpBind address the admin HTTP port (and the admin gRPC port) listen on
 * @param adminGrpcPort port of {@code sluice.admin.v1.SluiceAdmin}; empty = not served at all (it
 *     is never served on the RLS port); 0 picks a free port
 * @param adminTokenFile file holding the bearer token admin writes need; empty = writes refused
 * @param adminTokenForReads reads need the token too
 * @param grpcTls TLS on the RLS port; empty = plaintext
 * @param debugPort port of the reference's debug listener ({@code /rlconfig}), bound to {@code
 *     httpBind}; empty = none; 0 picks a free port
 */
public record AccessConfig(
    String grpcBind,
    String httpBind,
    OptionalInt adminGrpcPort,
    Optional<Path> adminTokenFile,
    boolean adminTokenForReads,
    Optional<GrpcTlsConfig> grpcTls,
    OptionalInt debugPort) {
  public static final String ALL_INTERFACES = "0.0.0.0";

  public AccessConfig {
    Objects.requireNonNull(grpcBind, "grpcBind");
    Objects.requireNonNull(httpBind, "httpBind");
    Objects.requireNonNull(adminGrpcPort, "adminGrpcPort");
    Objects.requireNonNull(adminTokenFile, "adminTokenFile");
    Objects.requireNonNull(grpcTls, "grpcTls");
    Objects.requireNonNull(debugPort, "debugPort");
    if (grpcBind.isBlank() || httpBind.isBlank()) {
      throw new IllegalArgumentException("bind addresses must not be empty");
    }
    if (adminGrpcPort.isPresent()
        && (adminGrpcPort.getAsInt() < 0 || adminGrpcPort.getAsInt() > 65_535)) {
      throw new IllegalArgumentException(
          "admin grpc port must be 0..65535: " + adminGrpcPort.getAsInt());
    }
    if (debugPort.isPresent() && (debugPort.getAsInt() < 0 || debugPort.getAsInt() > 65_535)) {
      throw new IllegalArgumentException("debug port must be 0..65535: " + debugPort.getAsInt());
    }
    if (adminTokenForReads && adminTokenFile.isEmpty()) {
      throw new IllegalArgumentException("--admin-token-for-reads needs --admin-token-file");
    }
  }

  /** Every interface, no admin gRPC port, no token (writes refused), no TLS. */
  public static AccessConfig defaults() {
    return from(SettingValues.defaults());
  }

  /** The validated access settings; a flag pair used half-way is an IllegalArgumentException. */
  public static AccessConfig from(SettingValues values) {
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

  /** A builder holding this configuration, to change some of its parts. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.grpcBind = grpcBind;
    builder.httpBind = httpBind;
    builder.adminGrpcPort = adminGrpcPort;
    builder.adminTokenFile = adminTokenFile;
    builder.adminTokenForReads = adminTokenForReads;
    builder.grpcTls = grpcTls;
    builder.debugPort = debugPort;
    return builder;
  }

  /**
   * Collects the parts of a {@link AccessConfig}; {@link #build} validates them. Not thread-safe.
   */
  public static final class Builder {
    private String grpcBind;
    private String httpBind;
    private OptionalInt adminGrpcPort;
    private Optional<Path> adminTokenFile;
    private boolean adminTokenForReads;
    private Optional<GrpcTlsConfig> grpcTls;
    private OptionalInt debugPort;

    private Builder() {}

    public Builder grpcBind(String value) {
      this.grpcBind = value;
      return this;
    }

    public Builder httpBind(String value) {
      this.httpBind = value;
      return this;
    }

    public Builder adminGrpcPort(OptionalInt value) {
      this.adminGrpcPort = value;
      return this;
    }

    public Builder adminTokenFile(Optional<Path> value) {
      this.adminTokenFile = value;
      return this;
    }

    public Builder adminTokenForReads(boolean value) {
      this.adminTokenForReads = value;
      return this;
    }

    public Builder grpcTls(Optional<GrpcTlsConfig> value) {
      this.grpcTls = value;
      return this;
    }

    public Builder debugPort(OptionalInt value) {
      this.debugPort = value;
      return this;
    }

    public AccessConfig build() {
      return new AccessConfig(
          grpcBind,
          httpBind,
          adminGrpcPort,
          adminTokenFile,
          adminTokenForReads,
          grpcTls,
          debugPort);
    }
  }
}
