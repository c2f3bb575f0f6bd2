package dev.sluice.config;

import java.time.Duration;
import java.util.List;

/**
 * The two ports and how they are served: threads, transport, connection age and limits, health,
 * admin writes, shutdown grace, admin HTTP.
 */
public final class ServerSettings {
  private static final int CORES = Runtime.getRuntime().availableProcessors();

  public static final Setting<Integer> GRPC_PORT =
      Setting.integer("--grpc-port", "SLUICE_GRPC_PORT", "8081", "gRPC port, 0 = any free port");

  public static final Setting<Integer> HTTP_PORT =
      Setting.integer(
          "--http-port", "SLUICE_HTTP_PORT", "8080", "Admin HTTP port, 0 = any free port");

  public static final Setting<Integer> GRPC_THREADS =
      Setting.of(
          "--grpc-threads",
          "SLUICE_GRPC_THREADS",
          "auto",
          text ->
              SettingText.countOrAuto("grpc threads", text, ServerConfig.defaultGrpcThreads(CORES)),
          "Threads running gRPC handlers; auto = 4 per CPU core, at least 8");

  public static final Setting<GrpcTransportConfig.Transport> GRPC_TRANSPORT =
      Setting.of(
          "--grpc-transport",
          "SLUICE_GRPC_TRANSPORT",
          "auto",
          GrpcTransportConfig.Transport::parse,
          "gRPC port's transport: auto = native epoll where it loads, else NIO; nio");

  public static final Setting<Integer> GRPC_EVENT_LOOPS =
      Setting.of(
          "--grpc-event-loops",
          "SLUICE_GRPC_EVENT_LOOPS",
          "auto",
          text ->
              SettingText.countOrAuto(
                  "grpc event loops", text, GrpcTransportConfig.defaultEventLoops(CORES)),
          "gRPC event-loop threads (one more accepts); auto = one per CPU core");

  public static final Setting<Integer> GRPC_FLOW_CONTROL_WINDOW =
      Setting.integer(
          "--grpc-flow-control-window",
          "SLUICE_GRPC_FLOW_CONTROL_WINDOW",
          "1048576",
          "HTTP/2 flow-control window of each gRPC stream and connection, bytes, >= 65535");

  public static final Setting<GrpcTransportConfig.RlsHandlers> GRPC_RLS_HANDLERS =
      Setting.of(
          "--grpc-rls-handlers",
          "SLUICE_GRPC_RLS_HANDLERS",
          "auto",
          GrpcTransportConfig.RlsHandlers::parse,
          "Where ShouldRateLimit runs: event-loop (no hand-off; it never blocks), pool (the --grpc-threads pool) or auto = event-loop except on a Redis Cluster");

  public static final Setting<Duration> GRPC_MAX_CONNECTION_AGE =
      Setting.duration(
          "--grpc-max-connection-age",
          "SLUICE_GRPC_MAX_CONNECTION_AGE",
          "24h",
          "Then clients get GOAWAY and reconnect, so new replicas get traffic");

  public static final Setting<Duration> GRPC_MAX_CONNECTION_AGE_GRACE =
      Setting.duration(
          "--grpc-max-connection-age-grace",
          "SLUICE_GRPC_MAX_CONNECTION_AGE_GRACE",
          "1h",
          "How long calls may finish after GOAWAY");

  public static final Setting<Integer> GRPC_MAX_CONCURRENT_CALLS_PER_CONNECTION =
      Setting.integer(
          "--grpc-max-concurrent-calls-per-connection",
          "SLUICE_GRPC_MAX_CONCURRENT_CALLS_PER_CONNECTION",
          "100",
          "Calls open at once on one gRPC connection; more are refused");

  public static final Setting<Integer> GRPC_MAX_CONNECTIONS =
      Setting.integer(
          "--grpc-max-connections",
          "SLUICE_GRPC_MAX_CONNECTIONS",
          "10000",
          "Connections open at once on the gRPC port; more are closed as they arrive");

  public static final Setting<Integer> GRPC_MAX_QUEUED_BYTES =
      Setting.integer(
          "--grpc-max-queued-bytes",
          "SLUICE_GRPC_MAX_QUEUED_BYTES",
          "1048576",
          "Bytes queued for a gRPC connection that does not read, >= 131072; then it is closed");

  public static final Setting<Integer> GRPC_MAX_RESETS_PER_SECOND =
      Setting.integer(
          "--grpc-max-resets-per-second",
          "SLUICE_GRPC_MAX_RESETS_PER_SECOND",
          "1000",
          "RST_STREAM frames a gRPC connection may send or provoke per second, over 10 s; then it is closed; 0 = no limit");

  public static final Setting<Integer> GRPC_MAX_METADATA_BYTES =
      Setting.integer(
          "--grpc-max-metadata-bytes",
          "SLUICE_GRPC_MAX_METADATA_BYTES",
          "8192",
          "Bytes of one gRPC call's headers; a call with more is refused");

  public static final Setting<Boolean> ADMIN_READ_ONLY =
      Setting.bool(
          "--admin-read-only",
          "SLUICE_ADMIN_READ_ONLY",
          false,
          "Refuse admin writes: rule reload, counter reset");

  public static final Setting<Boolean> HEALTH_NEEDS_RULES =
      Setting.bool(
          "--health-needs-rules",
          "SLUICE_HEALTH_NEEDS_RULES",
          false,
          "Health fails while no domain is loaded, e.g. with --allow-empty-rules before the first file arrives");

  /**
   * False for a liveness probe on /healthcheck (Envoy Gateway's): a Redis outage then does not get
   * the pods restarted, which would not bring Redis back and would drop the local state.
   */
  public static final Setting<Boolean> HEALTH_FOLLOWS_STORE =
      Setting.bool(
          "--health-follows-store",
          "SLUICE_HEALTH_FOLLOWS_STORE",
          true,
          "Health fails while a store's circuit breaker is open; false: it stays SERVING and"
              + " /healthcheck shows the store as DEGRADED");

  public static final Setting<Duration> SHUTDOWN_GRACE =
      Setting.duration(
          "--shutdown-grace",
          "SLUICE_SHUTDOWN_GRACE",
          "10s",
          "How long calls in flight may take to finish on SIGTERM");

  public static final Setting<Duration> HTTP_HEADER_TIMEOUT =
      Setting.duration(
          "--http-header-timeout",
          "SLUICE_HTTP_HEADER_TIMEOUT",
          "5s",
          "Admin HTTP: time from opening a connection to its last request header; then it is closed");

  public static final Setting<Duration> HTTP_BODY_TIMEOUT =
      Setting.duration(
          "--http-body-timeout",
          "SLUICE_HTTP_BODY_TIMEOUT",
          "10s",
          "Admin HTTP: time for a request body to arrive whole; then 408");

  public static final Setting<Integer> HTTP_MAX_CONNECTIONS =
      Setting.integer(
          "--http-max-connections",
          "SLUICE_HTTP_MAX_CONNECTIONS",
          "256",
          "Admin HTTP: connections open at once; beyond, the one waiting longest for its headers is closed");

  public static final Setting<Integer> HTTP_THREADS =
      Setting.integer(
          "--http-threads",
          "SLUICE_HTTP_THREADS",
          "4",
          "Admin HTTP: threads running the handlers that may block; /healthcheck never waits for them");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(
          GRPC_PORT,
          HTTP_PORT,
          GRPC_THREADS,
          GRPC_TRANSPORT,
          GRPC_EVENT_LOOPS,
          GRPC_FLOW_CONTROL_WINDOW,
          GRPC_RLS_HANDLERS,
          GRPC_MAX_CONNECTION_AGE,
          GRPC_MAX_CONNECTION_AGE_GRACE,
          GRPC_MAX_CONCURRENT_CALLS_PER_CONNECTION,
          GRPC_MAX_CONNECTIONS,
          GRPC_MAX_QUEUED_BYTES,
          GRPC_MAX_RESETS_PER_SECOND,
          GRPC_MAX_METADATA_BYTES,
          ADMIN_READ_ONLY,
          HEALTH_NEEDS_RULES,
          HEALTH_FOLLOWS_STORE,
          SHUTDOWN_GRACE,
          HTTP_HEADER_TIMEOUT,
          HTTP_BODY_TIMEOUT,
          HTTP_MAX_CONNECTIONS,
          HTTP_THREADS);

  private ServerSettings() {}
}
