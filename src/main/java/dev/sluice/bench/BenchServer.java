package dev.sluice.bench;

import dev.sluice.server.GrpcServer;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.stub.StreamObserver;
import java.util.List;

/**
 * A do-nothing RLS server: it answers every ShouldRateLimit with OK (one OK status per descriptor)
 * at once, on the same {@link GrpcServer} and handler thread count as Sluice. What the load
 * generator measures against it is the gRPC ceiling of this machine: no real server can answer
 * faster.
 */
public final class BenchServer {
  private BenchServer() {}

  /** Handler threads, the same number Sluice's composition root gives its gRPC server. */
  static int handlerThreads() {
    return Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
  }

  /**
   * Starts serving and reports SERVING on gRPC health.
   *
   * @param port 0 picks a free port ({@link GrpcServer#port()} tells which)
   */
  public static GrpcServer start(int port) {
    GrpcServer server =
        new GrpcServer(
            port, handlerThreads(), List.of(new AlwaysOkRateLimitService().bindService()));
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
