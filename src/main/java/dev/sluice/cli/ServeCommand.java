package dev.sluice.cli;

import dev.sluice.Sluice;
import dev.sluice.StartupException;
import dev.sluice.config.AccessConfig;
import dev.sluice.config.ConnectionAge;
import dev.sluice.config.ConsistencyConfig;
import dev.sluice.config.FailureMode;
import dev.sluice.config.GrpcTlsConfig;
import dev.sluice.config.GrpcTransportConfig;
import dev.sluice.config.HeaderConfig;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.RedisTls;
import dev.sluice.config.RulesConfig;
import dev.sluice.config.Secret;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.StoreConfig;
import dev.sluice.config.StoreKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Runs the service until SIGTERM or SIGINT, then stops gracefully and exits 0. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Serve Envoy's RLS v3 API on the gRPC port and the admin API on the HTTP port.")
final class ServeCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  @Spec CommandSpec spec;

  private final ReferenceEnvironment reference;

  ServeCommand() {
    this(ReferenceEnvironment.none());
  }

  ServeCommand(ReferenceEnvironment reference) {
    this.reference = reference;
  }

  @Mixin RulesOptions rules;

  @Mixin XdsOptions xds;

  @Mixin TracingOptions tracing;

  @Mixin CaptureOptions capture;

  @Mixin CapacityOptions capacity;

  @Mixin OverloadOptions overload;

  @Option(
      names = "--reload-interval",
      defaultValue = "${env:SLUICE_RELOAD_INTERVAL:-1s}",
      converter = Converters.DurationConverter.class,
      description =
          "How often rule files are checked for changes (env SLUICE_RELOAD_INTERVAL, default ${DEFAULT-VALUE}).")
  Duration reloadInterval;

  @Option(
      names = "--store",
      defaultValue = "${env:SLUICE_STORE:-memory}",
      converter = Converters.StoreKindConverter.class,
      description = "memory or redis (env SLUICE_STORE, default ${DEFAULT-VALUE}).")
  StoreKind store;

  @Option(
      names = "--redis-url",
      defaultValue = "${env:SLUICE_REDIS_URL:-redis://localhost:6379}",
      converter = Converters.RedisUrlConverter.class,
      description =
          "redis://[user:password@]host:port[/db], rediss://..., unix:///path/redis.sock[?db=N],"
              + " redis-cluster://[user:password@]h1:p1,h2:p2,..., rediss-cluster://...,"
              + " redis-sentinel://[user:password@]h1:p1,h2:p2/MASTER, rediss-sentinel://..."
              + " (env SLUICE_REDIS_URL, default redis://localhost:6379).")
  RedisEndpoint redisUrl;

  @Option(
      names = "--redis-sentinel-password",
      defaultValue = "${env:SLUICE_REDIS_SENTINEL_PASSWORD}",
      description =
          "Password of the sentinels themselves, when they have one (env"
              + " SLUICE_REDIS_SENTINEL_PASSWORD, default none).")
  String redisSentinelPassword;

  @Option(
      names = "--redis-tls-ca",
      defaultValue = "${env:SLUICE_REDIS_TLS_CA}",
      description =
          "PEM CA certificates a TLS Redis must chain to (env SLUICE_REDIS_TLS_CA, default the"
              + " JVM's trust store).")
  Path redisTlsCa;

  @Option(
      names = "--redis-tls-cert",
      defaultValue = "${env:SLUICE_REDIS_TLS_CERT}",
      description =
          "PEM client certificate for TLS Redis, with --redis-tls-key (env SLUICE_REDIS_TLS_CERT,"
              + " default none).")
  Path redisTlsCert;

  @Option(
      names = "--redis-tls-key",
      defaultValue = "${env:SLUICE_REDIS_TLS_KEY}",
      description =
          "PEM PKCS#8 private key of --redis-tls-cert (env SLUICE_REDIS_TLS_KEY, default none).")
  Path redisTlsKey;

  @Option(
      names = "--redis-tls-insecure",
      defaultValue = "${env:SLUICE_REDIS_TLS_INSECURE:-false}",
      description =
          "Accept any Redis certificate for any host name; logged as a warning (env"
              + " SLUICE_REDIS_TLS_INSECURE, default ${DEFAULT-VALUE}).")
  boolean redisTlsInsecure;

  @Option(
      names = "--redis-timeout",
      defaultValue = "${env:SLUICE_REDIS_TIMEOUT:-100ms}",
      converter = Converters.DurationConverter.class,
      description =
          "Connect and read timeout of one Redis round trip (env SLUICE_REDIS_TIMEOUT, default ${DEFAULT-VALUE}).")
  Duration redisTimeout;

  @Option(
      names = "--redis-connections",
      defaultValue = "${env:SLUICE_REDIS_CONNECTIONS:-2}",
      description =
          "Redis connections, each pipelining many requests (env SLUICE_REDIS_CONNECTIONS, default ${DEFAULT-VALUE}).")
  int redisConnections;

  @Option(
      names = "--redis-key-prefix",
      defaultValue = "${env:SLUICE_REDIS_KEY_PREFIX:-}",
      description = "Prefix of every Redis key (env SLUICE_REDIS_KEY_PREFIX, default none).")
  String keyPrefix;

  @Option(
      names = "--per-second-redis-url",
      defaultValue = "${env:SLUICE_PER_SECOND_REDIS_URL:-}",
      description =
          "A second Redis for limits whose unit is second (the reference's REDIS_PERSECOND), same"
              + " URL forms as --redis-url; TLS files, key prefix, queue and jitter as for"
              + " --redis-url (env SLUICE_PER_SECOND_REDIS_URL, default none: one Redis).")
  String perSecondRedisUrl;

  @Option(
      names = "--per-second-redis-connections",
      defaultValue = "${env:SLUICE_PER_SECOND_REDIS_CONNECTIONS:-2}",
      description =
          "Connections to the per-second Redis (env SLUICE_PER_SECOND_REDIS_CONNECTIONS, default"
              + " ${DEFAULT-VALUE}).")
  int perSecondRedisConnections;

  @Option(
      names = "--per-second-redis-timeout",
      defaultValue = "${env:SLUICE_PER_SECOND_REDIS_TIMEOUT:-100ms}",
      converter = Converters.DurationConverter.class,
      description =
          "Connect and read timeout of the per-second Redis (env SLUICE_PER_SECOND_REDIS_TIMEOUT,"
              + " default ${DEFAULT-VALUE}).")
  Duration perSecondRedisTimeout;

  @Option(
      names = "--per-second-redis-sentinel-password",
      defaultValue = "${env:SLUICE_PER_SECOND_REDIS_SENTINEL_PASSWORD}",
      description =
          "Password of the per-second Redis's sentinels (env"
              + " SLUICE_PER_SECOND_REDIS_SENTINEL_PASSWORD, default none).")
  String perSecondRedisSentinelPassword;

  @Option(
      names = "--expiration-jitter",
      defaultValue = "${env:SLUICE_EXPIRATION_JITTER:-0s}",
      converter = Converters.DurationConverter.class,
      description =
          "Redis: each fixed-window counter expires up to this much later, at random, so a"
              + " window's counters do not all expire in the same second (env"
              + " SLUICE_EXPIRATION_JITTER, default ${DEFAULT-VALUE}).")
  Duration expirationJitter;

  @Option(
      names = "--failure-mode",
      defaultValue = "${env:SLUICE_FAILURE_MODE:-error}",
      converter = Converters.FailureModeConverter.class,
      description =
          "When the store fails: error, allow, deny or local (env SLUICE_FAILURE_MODE, default ${DEFAULT-VALUE}).")
  FailureMode failureMode;

  @Option(
      names = "--instances",
      defaultValue = "${env:SLUICE_INSTANCES:-1}",
      description =
          "Sluice instances sharing the limits; failure mode local enforces limit/instances each (env SLUICE_INSTANCES, default ${DEFAULT-VALUE}).")
  int instances;

  @Option(
      names = "--local-cache-size",
      defaultValue = "${env:SLUICE_LOCAL_CACHE_SIZE:-0}",
      description =
          "Counters known to be over their limit answered locally, without the store; entries kept, 0 = off (env SLUICE_LOCAL_CACHE_SIZE, default ${DEFAULT-VALUE}).")
  long localCacheSize;

  @Option(
      names = "--sync-interval",
      defaultValue = "${env:SLUICE_SYNC_INTERVAL:-200ms}",
      converter = Converters.DurationConverter.class,
      description =
          "How often synced-consistency counters push their deltas to the store and read the global counts back (env SLUICE_SYNC_INTERVAL, default ${DEFAULT-VALUE}).")
  Duration syncInterval;

  @Option(
      names = "--sync-max-counters",
      defaultValue = "${env:SLUICE_SYNC_MAX_COUNTERS:-1000000}",
      description =
          "Synced counters (one per counter and window) held locally at most, also while the store is down; past it new ones are counted exactly (env SLUICE_SYNC_MAX_COUNTERS, default ${DEFAULT-VALUE}).")
  long syncMaxCounters;

  @Option(
      names = "--shadow-mode",
      arity = "0..1",
      defaultValue = "${env:SLUICE_SHADOW_MODE:-false}",
      description =
          "Answer OK overall whatever the limits say; statuses and metrics unchanged (env SLUICE_SHADOW_MODE, default ${DEFAULT-VALUE}).")
  boolean shadowMode;

  @Option(
      names = "--quota-mode",
      arity = "0..1",
      defaultValue = "${env:SLUICE_QUOTA_MODE:-false}",
      description =
          "Every descriptor but an unlimited one is in quota mode: a request is over the limit only"
              + " when all of them are (env SLUICE_QUOTA_MODE, default ${DEFAULT-VALUE}).")
  boolean quotaMode;

  @Option(
      names = "--near-limit-ratio",
      defaultValue = "${env:SLUICE_NEAR_LIMIT_RATIO:-0.8}",
      description =
          "Hits above this share of a limit count in sluice_rule_near_limit_total, in (0, 1] (env"
              + " SLUICE_NEAR_LIMIT_RATIO, default ${DEFAULT-VALUE}).")
  float nearLimitRatio;

  @Option(
      names = "--charge-denied",
      arity = "0..1",
      defaultValue = "${env:SLUICE_CHARGE_DENIED:-true}",
      description =
          "Charge refused hits to the counters, as the reference does; false: a refused request charges none of the descriptors whose rule does not set charge_denied (env SLUICE_CHARGE_DENIED, default ${DEFAULT-VALUE}).")
  boolean chargeDenied;

  @Option(
      names = "--response-headers",
      arity = "0..1",
      defaultValue = "${env:SLUICE_RESPONSE_HEADERS:-false}",
      description =
          "Ask Envoy to add RateLimit-Limit/Remaining/Reset headers (env SLUICE_RESPONSE_HEADERS, default ${DEFAULT-VALUE}).")
  boolean responseHeaders;

  @Option(
      names = "--response-dynamic-metadata",
      arity = "0..1",
      defaultValue = "${env:SLUICE_RESPONSE_DYNAMIC_METADATA:-false}",
      description =
          "Set the response's dynamic_metadata as the reference does: domain, descriptors, hits"
              + " addend and the metadata of the rules not over their limit (env"
              + " SLUICE_RESPONSE_DYNAMIC_METADATA, default ${DEFAULT-VALUE}).")
  boolean responseDynamicMetadata;

  @Option(
      names = "--limit-header",
      defaultValue = "${env:SLUICE_LIMIT_HEADER:-RateLimit-Limit}",
      description = "Name of the limit header (env SLUICE_LIMIT_HEADER, default ${DEFAULT-VALUE}).")
  String limitHeader;

  @Option(
      names = "--remaining-header",
      defaultValue = "${env:SLUICE_REMAINING_HEADER:-RateLimit-Remaining}",
      description =
          "Name of the remaining header (env SLUICE_REMAINING_HEADER, default ${DEFAULT-VALUE}).")
  String remainingHeader;

  @Option(
      names = "--reset-header",
      defaultValue = "${env:SLUICE_RESET_HEADER:-RateLimit-Reset}",
      description = "Name of the reset header (env SLUICE_RESET_HEADER, default ${DEFAULT-VALUE}).")
  String resetHeader;

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
          "PEM (PKCS#8) private key of --grpc-tls-cert (env SLUICE_GRPC_TLS_KEY, default none).")
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

  @Option(
      names = "--shutdown-grace",
      defaultValue = "${env:SLUICE_SHUTDOWN_GRACE:-10s}",
      converter = Converters.DurationConverter.class,
      description =
          "How long calls in flight may take to finish on SIGTERM (env SLUICE_SHUTDOWN_GRACE, default ${DEFAULT-VALUE}).")
  Duration shutdownGrace;

  @Override
  public Integer call() throws InterruptedException {
    if (!reference.errors().isEmpty()) {
      spec.commandLine().getErr().println("sluice: " + String.join("; ", reference.errors()));
      return Main.USAGE;
    }
    reference.warningLine(spec).ifPresent(log::warn);
    ServeConfig serveConfig = toConfig();
    StopSignal stop = StopSignal.install();
    try (Sluice sluice = Sluice.start(serveConfig, Clock.systemUTC())) {
      // Any other way the JVM ends (SIGHUP, System.exit) still closes Sluice; close is idempotent.
      Runtime.getRuntime().addShutdownHook(new Thread(sluice::close, "sluice-shutdown"));
      stop.await();
      log.info("stopping ({}): draining calls for up to {}", stop.reason(), shutdownGrace);
    }
    return 0;
  }

  private AccessConfig access() {
    OptionalInt adminPort;
    if (adminGrpcPort.equalsIgnoreCase("off")) {
      adminPort = OptionalInt.empty();
    } else {
      try {
        adminPort = OptionalInt.of(Integer.parseInt(adminGrpcPort));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "--admin-grpc-port must be 'off' or a port number: " + adminGrpcPort);
      }
    }
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
        grpcBind, httpBind, adminPort, path(adminTokenFile), adminTokenForReads, tls);
  }

  private static Optional<Path> path(String value) {
    return value.isEmpty() ? Optional.empty() : Optional.of(Path.of(value));
  }

  /** The per-second Redis: the main one's settings, with its own address, pool and timeout. */
  private Optional<RedisConfig> perSecond(RedisConfig main) {
    if (perSecondRedisUrl.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new RedisConfig(
            RedisEndpoint.parse(perSecondRedisUrl),
            main.tls(),
            Optional.ofNullable(perSecondRedisSentinelPassword).map(Secret::of),
            perSecondRedisTimeout,
            perSecondRedisConnections,
            main.keyPrefix(),
            main.maxQueuedHits(),
            main.expirationJitter()));
  }

  /** Builds the validated settings; a bad value is a usage error naming it. */
  ServeConfig toConfig() {
    if ("file".equalsIgnoreCase(xds.source.trim()) && !Files.exists(rules.config)) {
      // Not a usage error: the flag is well formed, the files are missing (exit 1, like bad rules).
      throw new StartupException("config path does not exist: " + rules.config);
    }
    try {
      RedisConfig redis =
          new RedisConfig(
              redisUrl,
              new RedisTls(
                  Optional.ofNullable(redisTlsCa),
                  Optional.ofNullable(redisTlsCert),
                  Optional.ofNullable(redisTlsKey),
                  redisTlsInsecure),
              Optional.ofNullable(redisSentinelPassword).map(Secret::of),
              redisTimeout,
              redisConnections,
              keyPrefix,
              overload.redisMaxQueuedHits,
              expirationJitter);
      return new ServeConfig(
          new RulesConfig(
              rules.config,
              reloadInterval,
              rules.defaultAlgorithm,
              rules.allowEmptyRules,
              rules.mergeDomains),
          new StoreConfig(
              store, redis, overload.breaker(), capacity.memoryMaxCounters, perSecond(redis)),
          new ServerConfig(
              grpcPort,
              httpPort,
              grpcThreads,
              adminReadOnly,
              shutdownGrace,
              new ConnectionAge(maxConnectionAge, maxConnectionAgeGrace),
              access(),
              healthNeedsRules,
              new GrpcTransportConfig(
                  grpcTransport, grpcEventLoops, grpcFlowControlWindow, grpcRlsHandlers)),
          new LimiterConfig(
              rules.defaultAlgorithm,
              failureMode,
              instances,
              shadowMode,
              localCacheSize,
              quotaMode,
              nearLimitRatio,
              chargeDenied),
          new HeaderConfig(
              responseHeaders, limitHeader, remainingHeader, resetHeader, responseDynamicMetadata),
          xds.toSource(),
          tracing.toConfig(),
          capacity.requestLimits(),
          capture.toConfig(),
          new ConsistencyConfig(rules.defaultConsistency, syncInterval, syncMaxCounters));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
