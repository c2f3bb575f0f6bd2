package dev.sluice.cli;

import dev.sluice.config.AccessConfig;
import dev.sluice.config.AdminHttpConfig;
import dev.sluice.config.ConnectionAge;
import dev.sluice.config.GrpcLimits;
import dev.sluice.config.GrpcTransportConfig;
import dev.sluice.config.ServerConfig;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The two ports and how they are served: gRPC threads and transport (event loops, flow control,
 * where ShouldRateLimit runs), connection age, what one client may hold of the gRPC port, health,
 * admin writes and the shutdown grace.
 */
final class ServerOptions {
  @Option(
      names = "--grpc-port",
      defaultValue = "${env:SLUICE_GRPC_PORT:-8081}",
      description =
          "gRPC port, 0 = any free port (env SLUICE_GRPC_PORT, default ${DEFAULT-VALUE}).")
  int grpcPort;

  @Option(
      names = "--http-port",
      defaultValue = "${env:SLUICE_HTTP_PORT:-8080}",
      description =
          "Admin HTTP port, 0 = any free port (env SLUICE_HTTP_PORT, default ${DEFAULT-VALUE}).")
  int httpPort;

  @Option(
      names = "--grpc-threads",
      defaultValue = "${env:SLUICE_GRPC_THREADS:-auto}",
      converter = Converters.GrpcThreadsConverter.class,
      description =
          "Threads running gRPC handlers; auto = 4 per CPU core, at least 8 (env"
              + " SLUICE_GRPC_THREADS, default ${DEFAULT-VALUE}).")
  int grpcThreads;

  @Option(
      names = "--grpc-transport",
      defaultValue = "${env:SLUICE_GRPC_TRANSPORT:-auto}",
      converter = Converters.GrpcTransportConverter.class,
      description =
          "gRPC port's transport: auto = native epoll where it loads, else NIO; nio (env"
              + " SLUICE_GRPC_TRANSPORT, default ${DEFAULT-VALUE}).")
  GrpcTransportConfig.Transport grpcTransport;

  @Option(
      names = "--grpc-event-loops",
      defaultValue = "${env:SLUICE_GRPC_EVENT_LOOPS:-auto}",
      converter = Converters.EventLoopsConverter.class,
      description =
          "gRPC event-loop threads (one more accepts); auto = one per CPU core (env"
              + " SLUICE_GRPC_EVENT_LOOPS, default ${DEFAULT-VALUE}).")
  int grpcEventLoops;

  @Option(
      names = "--grpc-flow-control-window",
      defaultValue = "${env:SLUICE_GRPC_FLOW_CONTROL_WINDOW:-1048576}",
      description =
          "HTTP/2 flow-control window of each gRPC stream and connection, bytes, >= 65535 (env"
              + " SLUICE_GRPC_FLOW_CONTROL_WINDOW, default ${DEFAULT-VALUE}).")
  int grpcFlowControlWindow;

  @Option(
      names = "--grpc-rls-handlers",
      defaultValue = "${env:SLUICE_GRPC_RLS_HANDLERS:-auto}",
      converter = Converters.RlsHandlersConverter.class,
      description =
          "Where ShouldRateLimit runs: event-loop (no hand-off; it never blocks), pool (the"
              + " --grpc-threads pool) or auto = event-loop except on a Redis Cluster (env"
              + " SLUICE_GRPC_RLS_HANDLERS, default ${DEFAULT-VALUE}).")
  GrpcTransportConfig.RlsHandlers grpcRlsHandlers;

  @Option(
      names = "--grpc-max-connection-age",
      defaultValue = "${env:SLUICE_GRPC_MAX_CONNECTION_AGE:-24h}",
      converter = Converters.DurationConverter.class,
      description =
          "Then clients get GOAWAY and reconnect, so new replicas get traffic (env"
              + " SLUICE_GRPC_MAX_CONNECTION_AGE, default ${DEFAULT-VALUE}).")
  Duration maxConnectionAge;

  @Option(
      names = "--grpc-max-connection-age-grace",
      defaultValue = "${env:SLUICE_GRPC_MAX_CONNECTION_AGE_GRACE:-1h}",
      converter = Converters.DurationConverter.class,
      description =
          "How long calls may finish after GOAWAY (env SLUICE_GRPC_MAX_CONNECTION_AGE_GRACE,"
              + " default ${DEFAULT-VALUE}).")
  Duration maxConnectionAgeGrace;

  @Option(
      names = "--grpc-max-concurrent-calls-per-connection",
      defaultValue = "${env:SLUICE_GRPC_MAX_CONCURRENT_CALLS_PER_CONNECTION:-1000}",
      description =
          "Calls open at once on one gRPC connection; more are refused (env"
              + " SLUICE_GRPC_MAX_CONCURRENT_CALLS_PER_CONNECTION, default ${DEFAULT-VALUE}).")
  int grpcMaxConcurrentCalls;

  @Option(
      names = "--grpc-max-connections",
      defaultValue = "${env:SLUICE_GRPC_MAX_CONNECTIONS:-10000}",
      description =
          "Connections open at once on the gRPC port; more are closed as they arrive (env"
              + " SLUICE_GRPC_MAX_CONNECTIONS, default ${DEFAULT-VALUE}).")
  int grpcMaxConnections;

  @Option(
      names = "--grpc-max-queued-bytes",
      defaultValue = "${env:SLUICE_GRPC_MAX_QUEUED_BYTES:-1048576}",
      description =
          "Bytes queued for a gRPC connection that does not read, >= 131072; then it is closed"
              + " (env SLUICE_GRPC_MAX_QUEUED_BYTES, default ${DEFAULT-VALUE}).")
  int grpcMaxQueuedBytes;

  @Option(
      names = "--grpc-max-resets-per-second",
      defaultValue = "${env:SLUICE_GRPC_MAX_RESETS_PER_SECOND:-1000}",
      description =
          "RST_STREAM frames a gRPC connection may send or provoke per second, over 10 s; then it"
              + " is closed; 0 = no limit (env SLUICE_GRPC_MAX_RESETS_PER_SECOND, default"
              + " ${DEFAULT-VALUE}).")
  int grpcMaxResetsPerSecond;

  @Option(
      names = "--grpc-max-metadata-bytes",
      defaultValue = "${env:SLUICE_GRPC_MAX_METADATA_BYTES:-8192}",
      description =
          "Bytes of one gRPC call's headers; a call with more is refused (env"
              + " SLUICE_GRPC_MAX_METADATA_BYTES, default ${DEFAULT-VALUE}).")
  int grpcMaxMetadataBytes;

  @Option(
      names = "--admin-read-only",
      arity = "0..1",
      defaultValue = "${env:SLUICE_ADMIN_READ_ONLY:-false}",
      description =
          "Refuse admin writes: rule reload, counter reset (env SLUICE_ADMIN_READ_ONLY, default ${DEFAULT-VALUE}).")
  boolean adminReadOnly;

  @Option(
      names = "--health-needs-rules",
      arity = "0..1",
      defaultValue = "${env:SLUICE_HEALTH_NEEDS_RULES:-false}",
      description =
          "Health fails while no domain is loaded, e.g. with --allow-empty-rules before the first"
              + " file arrives (env SLUICE_HEALTH_NEEDS_RULES, default ${DEFAULT-VALUE}).")
  boolean healthNeedsRules;

  @Option(
      names = "--shutdown-grace",
      defaultValue = "${env:SLUICE_SHUTDOWN_GRACE:-10s}",
      converter = Converters.DurationConverter.class,
      description =
          "How long calls in flight may take to finish on SIGTERM (env SLUICE_SHUTDOWN_GRACE, default ${DEFAULT-VALUE}).")
  Duration shutdownGrace;

  @Option(
      names = "--http-header-timeout",
      defaultValue = "${env:SLUICE_HTTP_HEADER_TIMEOUT:-5s}",
      converter = Converters.DurationConverter.class,
      description =
          "Admin HTTP: time from opening a connection to its last request header; then it is"
              + " closed (env SLUICE_HTTP_HEADER_TIMEOUT, default ${DEFAULT-VALUE}).")
  Duration httpHeaderTimeout;

  @Option(
      names = "--http-body-timeout",
      defaultValue = "${env:SLUICE_HTTP_BODY_TIMEOUT:-10s}",
      converter = Converters.DurationConverter.class,
      description =
          "Admin HTTP: time for a request body to arrive whole; then 408 (env"
              + " SLUICE_HTTP_BODY_TIMEOUT, default ${DEFAULT-VALUE}).")
  Duration httpBodyTimeout;

  @Option(
      names = "--http-max-connections",
      defaultValue = "${env:SLUICE_HTTP_MAX_CONNECTIONS:-256}",
      description =
          "Admin HTTP: connections open at once; beyond, the one waiting longest for its headers"
              + " is closed (env SLUICE_HTTP_MAX_CONNECTIONS, default ${DEFAULT-VALUE}).")
  int httpMaxConnections;

  @Option(
      names = "--http-threads",
      defaultValue = "${env:SLUICE_HTTP_THREADS:-4}",
      description =
          "Admin HTTP: threads running the handlers that may block; /healthcheck never waits for"
              + " them (env SLUICE_HTTP_THREADS, default ${DEFAULT-VALUE}).")
  int httpThreads;

  ServerConfig toConfig(AccessConfig access) {
    return new ServerConfig(
        grpcPort,
        httpPort,
        grpcThreads,
        adminReadOnly,
        shutdownGrace,
        new ConnectionAge(maxConnectionAge, maxConnectionAgeGrace),
        access,
        healthNeedsRules,
        new GrpcTransportConfig(
            grpcTransport, grpcEventLoops, grpcFlowControlWindow, grpcRlsHandlers),
        new AdminHttpConfig(httpHeaderTimeout, httpBodyTimeout, httpMaxConnections, httpThreads),
        new GrpcLimits(
            grpcMaxConcurrentCalls,
            grpcMaxConnections,
            grpcMaxQueuedBytes,
            grpcMaxResetsPerSecond,
            grpcMaxMetadataBytes));
  }
}
