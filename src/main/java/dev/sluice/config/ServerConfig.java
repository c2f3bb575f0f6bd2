package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The two ports and how they behave.
 *
 * @param grpcPort 0 picks a free port
 * @param httpPort 0 picks a free port
 * @param grpcThreads threads that run the gRPC handlers that may block (health, reflection, the
 *     admin API; ShouldRateLimit too with {@link GrpcTransportConfig.RlsHandlers#POOL}), at least 1
 * @param adminReadOnly refuse admin writes (reload, counter reset) even with a valid token
 * @param shutdownGrace how long requests in flight may take to finish on shutdown
 * @param connectionAge when the gRPC port asks clients to reconnect
 * @param access listen addresses, admin gRPC port, admin token, TLS
 * @param healthNeedsRules health fails while zero domains are loaded (the reference's
 *     HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED), so a replica without rules gets no traffic
 * @param transport the gRPC port's transport, event loops, flow-control window, handler thread
 * @param adminHttp the admin HTTP port's timeouts, connection bound and handler threads
 * @param grpcLimits what one client may hold of the gRPC port: calls, connections, queued bytes
 */
public record ServerConfig(
    int grpcPort,
    int httpPort,
    int grpcThreads,
    boolean adminReadOnly,
    Duration shutdownGrace,
    ConnectionAge connectionAge,
    AccessConfig access,
    boolean healthNeedsRules,
    GrpcTransportConfig transport,
    AdminHttpConfig adminHttp,
    GrpcLimits grpcLimits) {
  public ServerConfig {
    Objects.requireNonNull(connectionAge, "connectionAge");
    checkPort("grpc", grpcPort);
    checkPort("http", httpPort);
    if (grpcThreads < 1) {
      throw new IllegalArgumentException("grpc threads must be >= 1: " + grpcThreads);
    }
    Objects.requireNonNull(shutdownGrace, "shutdownGrace");
    if (shutdownGrace.isNegative()) {
      throw new IllegalArgumentException("shutdown grace must be >= 0: " + shutdownGrace);
    }
    Objects.requireNonNull(access, "access");
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(adminHttp, "adminHttp");
    Objects.requireNonNull(grpcLimits, "grpcLimits");
  }

  /**
   * The default handler threads for {@code cores} CPU cores: 4 per core, at least 8. Handlers do
   * not wait on Redis, so a few per core keep the cores busy while some block briefly on locks or
   * logging.
   */
  public static int defaultGrpcThreads(int cores) {
    return Math.max(8, 4 * cores);
  }

  /**
   * Free ports, default threads, default access (admin writes refused: no token), 5 s grace: for
   * tests and embedding.
   */
  public static ServerConfig anyFreePorts() {
    return from(
        SettingValues.builder()
            .set(ServerSettings.GRPC_PORT, 0)
            .set(ServerSettings.HTTP_PORT, 0)
            .set(ServerSettings.SHUTDOWN_GRACE, Duration.ofSeconds(5))
            .build());
  }

  private static void checkPort(String name, int port) {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException(name + " port must be 0..65535: " + port);
    }
  }

  /** From the declared settings. */
  public static ServerConfig from(SettingValues values) {
    return new ServerConfig(
        values.get(ServerSettings.GRPC_PORT),
        values.get(ServerSettings.HTTP_PORT),
        values.get(ServerSettings.GRPC_THREADS),
        values.get(ServerSettings.ADMIN_READ_ONLY),
        values.get(ServerSettings.SHUTDOWN_GRACE),
        new ConnectionAge(
            values.get(ServerSettings.GRPC_MAX_CONNECTION_AGE),
            values.get(ServerSettings.GRPC_MAX_CONNECTION_AGE_GRACE)),
        AccessConfig.from(values),
        values.get(ServerSettings.HEALTH_NEEDS_RULES),
        new GrpcTransportConfig(
            values.get(ServerSettings.GRPC_TRANSPORT),
            values.get(ServerSettings.GRPC_EVENT_LOOPS),
            values.get(ServerSettings.GRPC_FLOW_CONTROL_WINDOW),
            values.get(ServerSettings.GRPC_RLS_HANDLERS)),
        new AdminHttpConfig(
            values.get(ServerSettings.HTTP_HEADER_TIMEOUT),
            values.get(ServerSettings.HTTP_BODY_TIMEOUT),
            values.get(ServerSettings.HTTP_MAX_CONNECTIONS),
            values.get(ServerSettings.HTTP_THREADS)),
        new GrpcLimits(
            values.get(ServerSettings.GRPC_MAX_CONCURRENT_CALLS_PER_CONNECTION),
            values.get(ServerSettings.GRPC_MAX_CONNECTIONS),
            values.get(ServerSettings.GRPC_MAX_QUEUED_BYTES),
            values.get(ServerSettings.GRPC_MAX_RESETS_PER_SECOND),
            values.get(ServerSettings.GRPC_MAX_METADATA_BYTES)));
  }

  /** A builder holding this configuration, to change some of its parts. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.grpcPort = grpcPort;
    builder.httpPort = httpPort;
    builder.grpcThreads = grpcThreads;
    builder.adminReadOnly = adminReadOnly;
    builder.shutdownGrace = shutdownGrace;
    builder.connectionAge = connectionAge;
    builder.access = access;
    builder.healthNeedsRules = healthNeedsRules;
    builder.transport = transport;
    builder.adminHttp = adminHttp;
    builder.grpcLimits = grpcLimits;
    return builder;
  }

  /**
   * Collects the parts of a {@link ServerConfig}; {@link #build} validates them. Not thread-safe.
   */
  public static final class Builder {
    private int grpcPort;
    private int httpPort;
    private int grpcThreads;
    private boolean adminReadOnly;
    private Duration shutdownGrace;
    private ConnectionAge connectionAge;
    private AccessConfig access;
    private boolean healthNeedsRules;
    private GrpcTransportConfig transport;
    private AdminHttpConfig adminHttp;
    private GrpcLimits grpcLimits;

    private Builder() {}

    public Builder grpcPort(int value) {
      this.grpcPort = value;
      return this;
    }

    public Builder httpPort(int value) {
      this.httpPort = value;
      return this;
    }

    public Builder grpcThreads(int value) {
      this.grpcThreads = value;
      return this;
    }

    public Builder adminReadOnly(boolean value) {
      this.adminReadOnly = value;
      return this;
    }

    public Builder shutdownGrace(Duration value) {
      this.shutdownGrace = value;
      return this;
    }

    public Builder connectionAge(ConnectionAge value) {
      this.connectionAge = value;
      return this;
    }

    public Builder access(AccessConfig value) {
      this.access = value;
      return this;
    }

    public Builder healthNeedsRules(boolean value) {
      this.healthNeedsRules = value;
      return this;
    }

    public Builder transport(GrpcTransportConfig value) {
      this.transport = value;
      return this;
    }

    public Builder adminHttp(AdminHttpConfig value) {
      this.adminHttp = value;
      return this;
    }

    public Builder grpcLimits(GrpcLimits value) {
      this.grpcLimits = value;
      return this;
    }

    public ServerConfig build() {
      return new ServerConfig(
          grpcPort,
          httpPort,
          grpcThreads,
          adminReadOnly,
          shutdownGrace,
          connectionAge,
          access,
          healthNeedsRules,
          transport,
          adminHttp,
          grpcLimits);
    }
  }
}
