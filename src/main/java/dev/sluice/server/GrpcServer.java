package dev.sluice.server;

import dev.sluice.config.ConnectionAge;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Serves the given services plus health and reflection on one port. Health reports NOT_SERVING
 * until {@link #setServing} says otherwise, for the empty service name and for every service.
 */
public final class GrpcServer implements AutoCloseable {
  /** The health service name envoyproxy/ratelimit registers. */
  public static final String REFERENCE_SERVICE_NAME = "ratelimit";

  private final Server server;
  private final ExecutorService executor;
  private final HealthStatusManager health = new HealthStatusManager();
  private final List<String> serviceNames;
  private final int requestedPort;

  /**
   * Plaintext on every interface.
   *
   * @param port 0 picks a free port
   * @param threads size of the executor that runs request handlers
   */
  public GrpcServer(int port, int threads, List<ServerServiceDefinition> services) {
    this(port, threads, services, ConnectionAge.defaults());
  }

  /**
   * Plaintext on every interface.
   *
   * @param connectionAge when clients are sent GOAWAY so they reconnect (to any replica)
   */
  public GrpcServer(
      int port, int threads, List<ServerServiceDefinition> services, ConnectionAge connectionAge) {
    this(
        new InetSocketAddress(port),
        InsecureServerCredentials.create(),
        threads,
        services,
        connectionAge);
  }

  /**
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
    this.requestedPort = address.getPort();
    this.executor = boundedExecutor(threads);
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(address, credentials)
            .executor(executor)
            .maxConnectionAge(connectionAge.maxAge().toNanos(), TimeUnit.NANOSECONDS)
            .maxConnectionAgeGrace(connectionAge.grace().toNanos(), TimeUnit.NANOSECONDS)
            .addService(health.getHealthService())
            .addService(ProtoReflectionServiceV1.newInstance());
    services.forEach(builder::addService);
    this.serviceNames = services.stream().map(s -> s.getServiceDescriptor().getName()).toList();
    this.server = builder.build();
    setServing(false);
  }

  /** Binds the port. */
  public GrpcServer start() {
    try {
      server.start();
    } catch (IOException e) {
      // Not getListenSockets(): an unstarted server throws "Not started", hiding the port.
      throw new UncheckedIOException("cannot listen for gRPC on port " + requestedPort, e);
    }
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
      executor.shutdownNow();
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
