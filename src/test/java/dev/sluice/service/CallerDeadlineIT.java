package dev.sluice.service;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.util.concurrent.ListenableFuture;
import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.RedisTls;
import dev.sluice.config.StoreConfig;
import dev.sluice.testing.AdminClient;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.RunningSluice;
import dev.sluice.testing.StallingProxy;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * The caller's deadline against a real redis-server behind a proxy the test stalls: requests whose
 * callers stop waiting while Redis is stalled are never charged, are counted in {@code
 * sluice_requests_expired_total}, and the first request after the stall is served as usual.
 */
class CallerDeadlineIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: 1000000}
      """;

  private static final Duration WAIT = Duration.ofSeconds(30);

  /**
   * Long enough for a loaded machine to deliver the call to the server before it expires (else it
   * is never sent, or counted at arrival), short enough for a quick test.
   */
  private static final Duration IMPATIENT = Duration.ofSeconds(1);

  /** 10 minutes into an hour: the window cannot end during the test. */
  private final FakeClock clock = FakeClock.atEpochSecond(1_699_999_200L + 600);

  private StallingProxy proxy;
  private RunningSluice sluice;

  @BeforeEach
  void start() {
    try (Jedis jedis = redis.client()) {
      jedis.flushAll();
    }
    proxy = StallingProxy.to(redis.host(), redis.port());
    // One connection, so a stalled round trip holds every request behind it; a timeout longer
    // than the test, so the stall fails nothing by itself.
    RedisConfig settings =
        RedisConfig.builder(RedisEndpoint.parse("redis://127.0.0.1:" + proxy.port()))
            .tls(RedisTls.DEFAULTS)
            .sentinelPassword(Optional.empty())
            .timeout(WAIT)
            .connections(1)
            .keyPrefix("")
            .build();
    sluice = RunningSluice.start(RULES, StoreConfig.redis(settings), clock);
  }

  @AfterEach
  void stop() {
    proxy.resume();
    sluice.close();
    proxy.close();
  }

  private ListenableFuture<RateLimitResponse> send(Duration deadline) {
    return RateLimitServiceGrpc.newFutureStub(sluice.channel())
        .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
        .shouldRateLimit(request("api", descriptor("user", "alice")));
  }

  /**
   * Sends a request no rule matches, answered OK without the store, and waits for it. The channel
   * has one connection and the server reads its frames in order, running each call's handler as it
   * reads it, so this answer proves the server has read and handled everything sent before: a call
   * is in the lane's queue, a client's cancel (RST_STREAM, written before the client reports the
   * call's end) has cancelled the call's context. A call that failed DEADLINE_EXCEEDED at the
   * client proves neither: the server's deadline starts when the call reaches it, later than the
   * client's.
   */
  private void awaitServerReadEverythingSent() throws Exception {
    RateLimitResponse answer =
        RateLimitServiceGrpc.newFutureStub(sluice.channel())
            .withDeadlineAfter(WAIT.toMillis(), TimeUnit.MILLISECONDS)
            .shouldRateLimit(request("api", descriptor("unlimited", "witness")))
            .get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(answer.getOverallCode()).isEqualTo(RateLimitResponse.Code.OK);
  }

  /** Stalls Redis, then sends a request that waits: the lane's one connection is then busy. */
  private ListenableFuture<RateLimitResponse> stallBehindOnePatientRequest() {
    proxy.stall();
    ListenableFuture<RateLimitResponse> patient = send(WAIT);
    Eventually.await(WAIT, "the patient request held by the proxy", () -> proxy.heldBytes() > 0);
    return patient;
  }

  /** Hits charged in Redis, over every counter (one fixed-window key here). */
  private long chargedInRedis() {
    long hits = 0;
    try (Jedis jedis = redis.client()) {
      for (String key : jedis.keys("*")) {
        if (jedis.type(key).equals("string")) {
          hits += Long.parseLong(jedis.get(key));
        }
      }
    }
    return hits;
  }

  private double expired(String stage) {
    String text = new AdminClient(sluice.httpPort()).get("/metrics").body();
    Matcher value =
        Pattern.compile(
                "^sluice_requests_expired_total\\{stage=\"" + stage + "\"} (\\S+)$",
                Pattern.MULTILINE)
            .matcher(text);
    return value.find() ? Double.parseDouble(value.group(1)) : 0;
  }

  private void awaitExpiredInAll(int requests) {
    try {
      Eventually.await(
          WAIT, requests + " requests counted as expired", () -> expiredInAll() == requests);
    } catch (AssertionError e) {
      throw new AssertionError(
          e.getMessage()
              + ": arrival "
              + expired("arrival")
              + ", queued "
              + expired("queued")
              + ", cancelled "
              + expired("cancelled")
              + ", charged in redis "
              + chargedInRedis(),
          e);
    }
  }

  /** Every stage: on a loaded machine a call may reach the server only after its deadline. */
  private double expiredInAll() {
    return expired("arrival") + expired("queued") + expired("cancelled");
  }

  private static Status.Code codeOf(ListenableFuture<?> future) throws InterruptedException {
    try {
      future.get();
      return Status.Code.OK;
    } catch (ExecutionException e) {
      return Status.fromThrowable(e.getCause()).getCode();
    }
  }

  @Test
  void stalledRedis_requestsWhoseDeadlinePassedInTheQueue_areNeverCharged() throws Exception {
    int impatient = 40;
    ListenableFuture<RateLimitResponse> patient = stallBehindOnePatientRequest();
    List<ListenableFuture<RateLimitResponse>> queued = new ArrayList<>();
    for (int i = 0; i < impatient; i++) {
      queued.add(send(IMPATIENT));
    }
    for (ListenableFuture<RateLimitResponse> each : queued) {
      assertThat(codeOf(each)).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    }
    awaitServerReadEverythingSent(); // every client's cancel, before Redis comes back

    proxy.resume();

    assertThat(patient.get(WAIT.toSeconds(), TimeUnit.SECONDS).getOverallCode())
        .isEqualTo(RateLimitResponse.Code.OK);
    awaitExpiredInAll(impatient);
    RateLimitResponse next = send(WAIT).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(next.getOverallCode()).isEqualTo(RateLimitResponse.Code.OK);
    assertThat(chargedInRedis()).as("the patient request and the next one only").isEqualTo(2);
  }

  @Test
  void stalledRedis_cancelledCall_isNeverCharged() throws Exception {
    ListenableFuture<RateLimitResponse> patient = stallBehindOnePatientRequest();
    ListenableFuture<RateLimitResponse> cancelled = send(WAIT);
    awaitServerReadEverythingSent(); // the call is queued behind the stall
    cancelled.cancel(true);
    awaitServerReadEverythingSent(); // its cancel has reached the server, before Redis is back

    proxy.resume();

    assertThat(patient.get(WAIT.toSeconds(), TimeUnit.SECONDS).getOverallCode())
        .isEqualTo(RateLimitResponse.Code.OK);
    awaitExpiredInAll(1);
    assertThat(expired("cancelled")).isEqualTo(1);
    assertThat(send(WAIT).get(WAIT.toSeconds(), TimeUnit.SECONDS).getOverallCode())
        .isEqualTo(RateLimitResponse.Code.OK);
    assertThat(chargedInRedis()).as("the patient request and the next one only").isEqualTo(2);
  }
}
