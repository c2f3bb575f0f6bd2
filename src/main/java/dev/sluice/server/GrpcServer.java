package dev.sluice.server;

import dev.sluice.config.ConnectionAge;
import dev.sluice.config.GrpcLimits;
import dev.sluice.config.GrpcTransportConfig;
import dev.sluice.config.GrpcTransportConfig.RlsHandlers;
import dev.sluice.threads.DaemonThreadFactory;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerServiceDefinition;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the given services plus health and reflection on one port. Health reports NOT_SERVING
 * until {@link #setServing} says otherwise, for the empty service name and for every service.
 *
 * <p>Which thread runs what: the server's own {@link EventLoops} accept (one {@code grpc-boss}
 * thread) and read, decode, encode and write connections ({@code grpc-event-loop-N}, native epoll
 * where it loads). With {@link RlsHandlers#EVENT_LOOP} (and an unresolved {@link RlsHandlers#AUTO})
 * the given services run on the event loop of the call's connection, with no hand-off, so they must
 * never block; health and reflection (whose first call builds an index of every descriptor) always
 * run on the bounded {@code grpc-handler} pool, as the given services do with {@link
 * RlsHandlers#POOL}. A response written from another thread (a Redis lane completing a future) is
 * queued to the connection's event loop by Netty.
 *
 * <p>What one client may hold of the port is bounded ({@link PortLimits}): calls per connection,
 * header bytes and resets by grpc-java's own settings, connections and unread bytes by {@link
 * ConnectionGuard}; what the limits do is counted and logged by {@link TransportReport}.
 */
public final class GrpcServer implements AutoCloseable {
  /** The health service name envoyproxy/ratelimit registers. */
  public static final String REFERENCE_SERVICE_NAME = "ratelimit";

  private static final Logger log = LoggerFactory.getLogger(GrpcServer.class);

  private final Server server;
  private final Optional<ExecutorService> executor;
  private final Optional<EventLoops> eventLoops;
  private final HealthStatusManager health = new HealthStatusManager();
  private final List<String> serviceNames;
  private final int requestedPort;
  private final String handlers;

  /**
   * How a server runs its calls.
   *
   * @param threads size of the pool that runs handlers that may block
   * @param connectionAge when clients are sent GOAWAY so they reconnect (to any replica)
   * @param transport transport, event loops, flow-control window, where the given services run
   * @param limits what one client may hold of the port, and where what they did is reported
   */
  public record Settings(
      int threads, ConnectionAge connectionAge, GrpcTransportConfig transport, PortLimits limits) {
    public Settings {
      if (threads < 1) {
        throw new IllegalArgumentException("grpc threads must be >= 1: " + threads);
      }
      Objects.requireNonNull(connectionAge, "connectionAge");
      Objects.requireNonNull(transport, "transport");
      Objects.requireNonNull(limits, "limits");
    }

    /** With the default limits, reported to metrics nobody scrapes. */
    public Settings(int threads, ConnectionAge connectionAge, GrpcTransportConfig transport) {
      this(threads, connectionAge, transport, PortLimits.defaults());
    }

    /** The tuned transport with every handler on the pool: for services that may block. */
    public static Settings pooled(int threads, ConnectionAge connectionAge) {
      return new Settings(
          threads,
          connectionAge,
          GrpcTransportConfig.defaults().toBuilder().rlsHandlers(RlsHandlers.POOL).build());
    }
  }

  /**
   * Plaintext on every interface, every handler on the pool.
   *
   * @param port 0 picks a free port
   * @param threads size of the executor that runs request handlers
   */
  public GrpcServer(int port, int threads, List<ServerServiceDefinition> services) {
    this(port, threads, services, ConnectionAge.defaults());
  }

  /**
   * Plaintext on every interface, every handler on the pool.
   *
   * @param connectionAge when clients are sent GOAWAY so they reconnect (to any replica)
   */
  public GrpcServer(
      int port, int threads, List<ServerServiceDefinition> services, ConnectionAge connectionAge) {
    this(
        new InetSocketAddress(port),
        InsecureServerCredentials.create(),
        services,
        Settings.pooled(threads, connectionAge));
  }

  /**
   * Every handler on the pool.
   *
   * @param address where to listen; port 0 picks a free port
   * @param credentials plaintext ({@link InsecureServerCredentials}) or TLS
   * @param threads size of the executor that runs request handlers
   * @param connectionAge when clients are sent GOAWAY so they reconnect (to any replica)
   */
  public GrpcServer(
      InetSocketAddress address,
      ServerCredentials credentials,
      int threads,
      List<ServerServiceDefinition> services,
      ConnectionAge connectionAge) {
    this(address, credentials, services, Settings.pooled(threads, connectionAge));
  }

  /**
   * @param address where to listen; port 0 picks a free port
   * @param credentials plaintext ({@link InsecureServerCredentials}) or TLS
   * @param services with {@link RlsHandlers#EVENT_LOOP}, handlers that never block
   */
  public GrpcServer(
      InetSocketAddress address,
      ServerCredentials credentials,
      List<ServerServiceDefinition> services,
      Settings settings) {
    this.requestedPort = address.getPort();
    ExecutorService pool = boundedExecutor(settings.threads());
    EventLoops loops = EventLoops.open("grpc", settings.transport());
    this.executor = Optional.of(pool);
    this.eventLoops = Optional.of(loops);
    this.serviceNames = namesOf(services);
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(address, credentials)
            .bossEventLoopGroup(loops.boss())
            .workerEventLoopGroup(loops.workers())
            .flowControlWindow(settings.transport().flowControlWindowBytes())
            .maxConnectionAge(settings.connectionAge().maxAge().toNanos(), TimeUnit.NANOSECONDS)
            .maxConnectionAgeGrace(
                settings.connectionAge().grace().toNanos(), TimeUnit.NANOSECONDS);
    withLimits(builder, loops, settings.limits());
    this.handlers =
        settings.transport().rlsHandlers() == RlsHandlers.POOL ? "handler pool" : "event loop";
    if (settings.transport().rlsHandlers() != RlsHandlers.POOL) {
      // Calls run where they arrive; health and reflection are moved to the pool one by one.
      builder.directExecutor();
      this.server = withServices(builder, pool, services).build();
    } else {
      builder.executor(pool);
      this.server = withServices(builder, services).build();
    }
    setServing(false);
  }

  /**
   * grpc-java's defaults, untuned: {@code NettyServerBuilder.forPort} with its shared event loops
   * and its default (cached, unbounded) executor; plaintext. For the do-nothing bench server, so a
   * reader sees what the transport alone gives.
   */
  public static GrpcServer withGrpcDefaults(int port, List<ServerServiceDefinition> services) {
    return new GrpcServer(port, services);
  }

  private GrpcServer(int port, List<ServerServiceDefinition> services) {
    this.requestedPort = port;
    this.executor = Optional.empty();
    this.eventLoops = Optional.empty();
    this.serviceNames = namesOf(services);
    this.handlers = "grpc-java default executor";
    this.server = withServices(NettyServerBuilder.forPort(port), services).build();
    setServing(false);
  }

  /**
   * grpc-java's own limits (calls per connection, header bytes, resets), and the listening channel
   * that adds Sluice's (connections, queued bytes).
   */
  private static void withLimits(NettyServerBuilder builder, EventLoops loops, PortLimits port) {
    GrpcLimits limits = port.limits();
    builder
        .channelFactory(ConnectionGuard.channels(loops.channelType(), limits, port.report()))
        .maxConcurrentCallsPerConnection(limits.maxConcurrentCallsPerConnection())
        .maxInboundMetadataSize(limits.maxMetadataBytes());
    if (limits.maxResetsPerSecond() > 0) {
      long perWindow = (long) limits.maxResetsPerSecond() * GrpcLimits.RESET_WINDOW_SECONDS;
      // Integer.MAX_VALUE is grpc-java's "no limit", which this then also means.
      builder.maxRstFramesPerWindow(
          (int) Math.min(Integer.MAX_VALUE, perWindow), GrpcLimits.RESET_WINDOW_SECONDS);
    }
  }

  private NettyServerBuilder withServices(
      NettyServerBuilder builder, List<ServerServiceDefinition> services) {
    builder
        .addService(health.getHealthService())
        .addService(ProtoReflectionServiceV1.newInstance());
    services.forEach(builder::addService);
    return builder;
  }

  /** Health and reflection on {@code pool}, {@code services} where the server runs calls. */
  private NettyServerBuilder withServices(
      NettyServerBuilder builder, Executor pool, List<ServerServiceDefinition> services) {
    builder
        .addService(PooledService.on(pool, health.getHealthService().bindService()))
        .addService(PooledService.on(pool, ProtoReflectionServiceV1.newInstance().bindService()));
    services.forEach(builder::addService);
    return builder;
  }

  private static List<String> namesOf(List<ServerServiceDefinition> services) {
    return services.stream().map(s -> s.getServiceDescriptor().getName()).toList();
  }

  /** Binds the port. */
  public GrpcServer start() {
    try {
      server.start();
    } catch (IOException e) {
      // Not getListenSockets(): an unstarted server throws "Not started", hiding the port.
      throw new UncheckedIOException("cannot listen for gRPC on port " + requestedPort, e);
    }
    log.info("grpc port {}: {} on the {}", port(), serviceNames, handlers);
    return this;
  }

  /** The bound port (the chosen one when started with port 0). */
  public int port() {
    return server.getPort();
  }

  public void setServing(boolean serving) {
    ServingStatus status = serving ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
    health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, status);
    // The reference service's name, which existing Kubernetes gRPC probes ask for.
    health.setStatus(REFERENCE_SERVICE_NAME, status);
    for (String name : serviceNames) {
      health.setStatus(name, status);
    }
  }

  /**
   * Stops taking new calls, lets calls in flight finish for up to {@code grace}, then cancels the
   * rest and closes connections.
   */
  public synchronized void stop(Duration grace) {
    if (server.isShutdown()) {
      return;
    }
    health.enterTerminalState();
    server.shutdown();
    try {
      if (!server.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        server.shutdownNow();
        server.awaitTermination(1, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    } finally {
      executor.ifPresent(ExecutorService::shutdownNow);
      // After termination: grpc-java never shuts down event loops it was given.
      eventLoops.ifPresent(EventLoops::close);
    }
  }

  @Override
  public void close() {
    stop(Duration.ofSeconds(5));
  }

  /** Fixed threads with an unbounded queue: a burst queues briefly instead of failing calls. */
  private static ExecutorService boundedExecutor(int threads) {
    return new ThreadPoolExecutor(
        threads,
        threads,
        0,
        TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(),
        new DaemonThreadFactory("grpc-handler"));
  }
}
