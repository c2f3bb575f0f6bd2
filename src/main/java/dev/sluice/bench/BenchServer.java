package dev.sluice.bench;

import dev.sluice.config.ConfigNames;
import dev.sluice.config.ConnectionAge;
import dev.sluice.config.GrpcTransportConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.server.GrpcServer;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;

/**
 * A do-nothing RLS server: it answers every ShouldRateLimit with OK (one OK status per descriptor)
 * at once. What the load generator measures against it is the gRPC ceiling of this machine: no real
 * server can answer faster. {@link Transport#TUNED} serves it exactly as Sluice serves the RLS port
 * (the same {@link GrpcServer} settings: event loops, handler on the event loop); {@link
 * Transport#DEFAULT} on grpc-java's defaults, so a reader sees what the transport tuning alone
 * gives.
 */
public final class BenchServer {
  private BenchServer() {}

  /** How the do-nothing server is served. */
  public enum Transport {
    /** {@code NettyServerBuilder.forPort}: grpc-java's shared event loops and default executor. */
    DEFAULT,
    /** Sluice's RLS port, with Sluice's default settings. */
    TUNED;

    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @throws IllegalArgumentException naming the value and the choices
     */
    public static Transport parse(String value) {
      return ConfigNames.parse(values(), Transport::configName, value, "bench-server transport");
    }
  }

  /** Handler threads, the same number Sluice's composition root gives its gRPC server. */
  static int handlerThreads() {
    return ServerConfig.defaultGrpcThreads(Runtime.getRuntime().availableProcessors());
  }

  /** {@link Transport#TUNED}, as Sluice serves. */
  public static GrpcServer start(int port) {
    return start(port, Transport.TUNED);
  }

  /**
   * Starts serving and reports SERVING on gRPC health.
   *
   * @param port 0 picks a free port ({@link GrpcServer#port()} tells which)
   */
  public static GrpcServer start(int port, Transport transport) {
    List<ServerServiceDefinition> services = List.of(new AlwaysOkRateLimitService().bindService());
    GrpcServer server =
        switch (transport) {
          case DEFAULT -> GrpcServer.withGrpcDefaults(port, services);
          case TUNED ->
              new GrpcServer(
                  new InetSocketAddress(port),
                  InsecureServerCredentials.create(),
                  services,
                  new GrpcServer.Settings(
                      handlerThreads(), ConnectionAge.defaults(), GrpcTransportConfig.defaults()));
        };
    server.start();
    server.setServing(true);
    return server;
  }

  /** Answers OK without looking at anything but the number of descriptors. */
  static final class AlwaysOkRateLimitService
      extends RateLimitServiceGrpc.RateLimitServiceImplBase {
    private static final DescriptorStatus OK =
        DescriptorStatus.newBuilder().setCode(Code.OK).build();

    @Override
    public void shouldRateLimit(
        RateLimitRequest request, StreamObserver<RateLimitResponse> responseObserver) {
      RateLimitResponse.Builder response = RateLimitResponse.newBuilder().setOverallCode(Code.OK);
      for (int i = 0; i < request.getDescriptorsCount(); i++) {
        response.addStatuses(OK);
      }
      responseObserver.onNext(response.build());
      responseObserver.onCompleted();
    }
  }
}
