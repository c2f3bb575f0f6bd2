package dev.sluice.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Graceful stop: calls in flight finish, new calls are refused, health goes NOT_SERVING. */
class GrpcServerIT {

  /** Answers OK once released, so a test can hold calls in flight. */
  private static final class HeldService extends RateLimitServiceGrpc.RateLimitServiceImplBase {
    final CountDownLatch arrived = new CountDownLatch(1);
    final CompletableFuture<Void> release = new CompletableFuture<>();

    @Override
    public void shouldRateLimit(RateLimitRequest request, StreamObserver<RateLimitResponse> out) {
      arrived.countDown();
      release.thenRun(
          () -> {
            out.onNext(
                RateLimitResponse.newBuilder().setOverallCode(RateLimitResponse.Code.OK).build());
            out.onCompleted();
          });
    }
  }

  @Test
  void stop_callInFlight_finishesWithinTheGraceAndNewCallsAreRefused() throws Exception {
    HeldService service = new HeldService();
    GrpcServer server = new GrpcServer(0, 2, List.of(service.bindService())).start();
    server.setServing(true);
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
    try {
      var inFlight =
          RateLimitServiceGrpc.newFutureStub(channel)
              .shouldRateLimit(RateLimitRequest.getDefaultInstance());
      assertThat(service.arrived.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(
              HealthGrpc.newBlockingStub(channel)
                  .check(HealthCheckRequest.getDefaultInstance())
                  .getStatus())
          .isEqualTo(ServingStatus.SERVING);

      CompletableFuture<Void> stopping =
          CompletableFuture.runAsync(() -> server.stop(Duration.ofSeconds(10)));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (!stopping.isDone() && System.nanoTime() < deadline && !refusesNewCalls(channel)) {
        Thread.onSpinWait();
      }
      assertThat(stopping).as("waits for the call in flight").isNotDone();

      service.release.complete(null);
      assertThat(inFlight.get(10, TimeUnit.SECONDS).getOverallCode())
          .isEqualTo(RateLimitResponse.Code.OK);
      stopping.get(10, TimeUnit.SECONDS);
      assertThatThrownBy(
              () ->
                  RateLimitServiceGrpc.newBlockingStub(channel)
                      .shouldRateLimit(RateLimitRequest.getDefaultInstance()))
          .isInstanceOf(StatusRuntimeException.class);
    } finally {
      channel.shutdownNow();
      server.close();
    }
  }

  private static boolean refusesNewCalls(ManagedChannel channel) {
    try {
      HealthGrpc.newBlockingStub(channel)
          .withDeadlineAfter(1, TimeUnit.SECONDS)
          .check(HealthCheckRequest.getDefaultInstance());
      return false;
    } catch (StatusRuntimeException e) {
      return true;
    }
  }
}
