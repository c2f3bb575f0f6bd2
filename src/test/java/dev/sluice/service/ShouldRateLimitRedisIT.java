package dev.sluice.service;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The end-to-end path of {@link ShouldRateLimitIT} with {@code --store redis}: a real gRPC client,
 * a real Sluice and a private redis-server. Tests share the server, so each uses its own values.
 */
class ShouldRateLimitRedisIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: minute, requests_per_unit: 5, name: per-user}
        - key: bucket
          rate_limit: {unit: hour, requests_per_unit: 1, algorithm: token_bucket, burst: 3}
        - key: shared
          rate_limit: {unit: hour, requests_per_unit: 50}
      """;

  private static final Duration DEADLINE = Duration.ofSeconds(15);

  /**
   * 12 seconds into a minute. Fixed windows use the service clock, so the window cannot roll over
   * mid-test; token buckets use Redis's TIME, so their rates here make real milliseconds
   * irrelevant.
   */
  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L - 8);

  private RunningSluice start() {
    return RunningSluice.start(RULES, RunningSluice.redisStore(redis.uri()), clock);
  }

  @Test
  void counted_limitFive_fifthOkSixthOverLimit() {
    try (RunningSluice sluice = start()) {
      RateLimitRequest request = request("api", descriptor("user", "counted"));
      for (int i = 1; i <= 5; i++) {
        RateLimitResponse response = sluice.rls().shouldRateLimit(request);
        assertThat(response.getOverallCode()).as("hit %d", i).isEqualTo(Code.OK);
        assertThat(response.getStatuses(0).getLimitRemaining()).isEqualTo(5 - i);
        assertThat(response.getStatuses(0).getDurationUntilReset().getSeconds()).isEqualTo(48);
        assertThat(response.getStatuses(0).getCurrentLimit().getName()).isEqualTo("per-user");
      }

      RateLimitResponse sixth = sluice.rls().shouldRateLimit(request);

      assertThat(sixth.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
      assertThat(sixth.getStatuses(0).getLimitRemaining()).isZero();
    }
  }

  @Test
  void tokenBucket_burstOfThree_allowsThreeThenRefusesUntilATokenDrips() {
    try (RunningSluice sluice = start()) {
      RateLimitRequest request = request("api", descriptor("bucket", "tb"));
      for (int i = 1; i <= 3; i++) {
        DescriptorStatus status = sluice.rls().shouldRateLimit(request).getStatuses(0);
        assertThat(status.getCode()).as("hit %d", i).isEqualTo(Code.OK);
        assertThat(status.getLimitRemaining()).isEqualTo(3 - i);
      }

      DescriptorStatus refused = sluice.rls().shouldRateLimit(request).getStatuses(0);

      assertThat(refused.getCode()).isEqualTo(Code.OVER_LIMIT);
      assertThat(refused.getLimitRemaining()).isZero();
      // One token per hour: the next one is just under an hour away.
      assertThat(refused.getDurationUntilReset().getSeconds()).isBetween(3_500L, 3_600L);
    }
  }

  @Test
  void twoInstancesOnOneRedis_sixteenThreadsEach_shareTheLimitExactly() throws Exception {
    int threadsPerInstance = 16;
    int requestsPerThread = 5;
    try (RunningSluice first = start();
        RunningSluice second = start()) {
      RateLimitRequest request = request("api", descriptor("shared", "everyone"));
      ExecutorService pool = Executors.newFixedThreadPool(2 * threadsPerInstance);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<int[]>> results = new ArrayList<>();
      try {
        for (RunningSluice instance : List.of(first, second)) {
          for (int t = 0; t < threadsPerInstance; t++) {
            results.add(
                pool.submit(
                    () -> {
                      go.await();
                      int[] okAndOver = new int[2];
                      for (int i = 0; i < requestsPerThread; i++) {
                        Code code = instance.rls().shouldRateLimit(request).getOverallCode();
                        okAndOver[code == Code.OK ? 0 : 1]++;
                      }
                      return okAndOver;
                    }));
          }
        }
        go.countDown();
        int ok = 0;
        int over = 0;
        for (Future<int[]> result : results) {
          int[] okAndOver = result.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
          ok += okAndOver[0];
          over += okAndOver[1];
        }

        assertThat(ok).isEqualTo(50);
        assertThat(over).isEqualTo(2 * threadsPerInstance * requestsPerThread - 50);
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void redisStopped_answersUnavailableNamingTheStore_thenRecoversWhenRedisIsBack()
      throws Exception {
    try (RunningSluice sluice = start()) {
      RateLimitRequest request = request("api", descriptor("user", "outage"));
      assertThat(sluice.rls().shouldRateLimit(request).getOverallCode()).isEqualTo(Code.OK);

      redis.stop();
      try {
        assertThatThrownBy(() -> sluice.rls().shouldRateLimit(request))
            .isInstanceOfSatisfying(
                StatusRuntimeException.class,
                e -> {
                  assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
                  assertThat(e.getStatus().getDescription())
                      .contains("store")
                      .contains("redis at " + redis.host() + ":" + redis.port());
                });
        // Health follows the circuit breaker, which opens after a few failures in a row.
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (healthcheck(sluice).statusCode() != 503 && System.nanoTime() < deadline) {
          try {
            sluice.rls().shouldRateLimit(request);
          } catch (StatusRuntimeException expected) {
            // each failure counts towards opening the breaker
          }
        }
        HttpResponse<String> health = healthcheck(sluice);
        assertThat(health.statusCode()).isEqualTo(503);
        assertThat(health.body()).contains("store redis");
      } finally {
        redis.start();
      }

      RateLimitResponse recovered = pollUntilAnswered(sluice, request);
      assertThat(recovered.getOverallCode()).isEqualTo(Code.OK);
      // The restarted server is empty: counting starts again.
      assertThat(recovered.getStatuses(0).getLimitRemaining()).isEqualTo(4);
      assertThat(healthcheck(sluice).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void reflection_listsTheRateLimitServiceAndHealth() throws Exception {
    try (RunningSluice sluice = start()) {
      CompletableFuture<ServerReflectionResponse> answer = new CompletableFuture<>();
      StreamObserver<ServerReflectionRequest> requests =
          ServerReflectionGrpc.newStub(sluice.channel())
              .withDeadlineAfter(DEADLINE.toSeconds(), TimeUnit.SECONDS)
              .serverReflectionInfo(completing(answer));
      requests.onNext(ServerReflectionRequest.newBuilder().setListServices("*").build());
      requests.onCompleted();

      ServerReflectionResponse response = answer.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

      assertThat(response.getListServicesResponse().getServiceList())
          .extracting(ServiceResponse::getName)
          .contains("envoy.service.ratelimit.v3.RateLimitService", "grpc.health.v1.Health");
    }
  }

  /** Polls with a deadline: the pool's connections to the old server fail once each. */
  private static RateLimitResponse pollUntilAnswered(
      RunningSluice sluice, RateLimitRequest request) {
    long end = System.nanoTime() + DEADLINE.toNanos();
    StatusRuntimeException last = null;
    while (System.nanoTime() < end) {
      try {
        return sluice.rls().shouldRateLimit(request);
      } catch (StatusRuntimeException e) {
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        last = e;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    throw new AssertionError("no answer within " + DEADLINE + " after redis restarted", last);
  }

  private static HttpResponse<String> healthcheck(RunningSluice sluice) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + sluice.sluice().httpPort() + "/healthcheck"))
            .timeout(DEADLINE)
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static StreamObserver<ServerReflectionResponse> completing(
      CompletableFuture<ServerReflectionResponse> answer) {
    return new StreamObserver<>() {
      @Override
      public void onNext(ServerReflectionResponse value) {
        answer.complete(value);
      }

      @Override
      public void onError(Throwable t) {
        answer.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        answer.completeExceptionally(new AssertionError("stream ended without an answer"));
      }
    };
  }
}
