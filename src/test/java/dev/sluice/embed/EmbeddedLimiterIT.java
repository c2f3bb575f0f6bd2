package dev.sluice.embed;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.FailureMode;
import dev.sluice.testing.Hammer;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Embedded limiters and a Sluice server on one real Redis count the same counters: together they
 * allow exactly the limit, whichever of them is asked.
 */
class EmbeddedLimiterIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final int LIMIT = 100;

  /**
   * Per day: the server and the embedded limiters count on the real clock, and "exactly the limit"
   * needs every hit in one window (an hour's boundary inside the hammering would allow up to twice
   * as many) and a bucket that does not refill meanwhile.
   */
  private static final String RULES =
      """
      domain: shared
      descriptors:
        - key: fixed
          rate_limit: {unit: day, requests_per_unit: 100}
        - key: bucket
          rate_limit: {unit: day, requests_per_unit: 100, algorithm: token_bucket}
      """;

  private RunningSluice server;
  private SluiceLimiter first;
  private SluiceLimiter second;

  @BeforeEach
  void start() {
    server = RunningSluice.start(RULES, RunningSluice.redisStore(redis.uri()), Clock.systemUTC());
    first = embedded(redis.uri());
    second = embedded(redis.uri());
  }

  /** On the server's own rule directory, with the test's generous Redis timeout. */
  private SluiceLimiter embedded(URI url) {
    return SluiceLimiter.builder()
        .rules(server.rulesDir())
        .redis(url)
        .redisTimeout(Duration.ofSeconds(1))
        .build();
  }

  @AfterEach
  void stop() {
    first.close();
    second.close();
    server.close();
  }

  private static boolean allowedBy(SluiceLimiter limiter, String key, String value) {
    return limiter
        .shouldRateLimit("shared", List.of(Descriptor.of(key, value)), 1)
        .toCompletableFuture()
        .join()
        .allowed();
  }

  private boolean allowedByServer(String key, String value) {
    return server.rls().shouldRateLimit(request("shared", descriptor(key, value))).getOverallCode()
        == RateLimitResponse.Code.OK;
  }

  @ParameterizedTest
  @ValueSource(strings = {"fixed", "bucket"})
  void twoEmbeddedAndOneServer_32Threads_allowExactlyTheLimit(String key) throws Exception {
    String value = "hammered-" + System.nanoTime();
    int allowed =
        Hammer.countAllowed(
            32,
            10,
            thread -> {
              BooleanSupplier attempt =
                  switch (thread % 3) {
                    case 0 -> () -> allowedBy(first, key, value);
                    case 1 -> () -> allowedBy(second, key, value);
                    default -> () -> allowedByServer(key, value);
                  };
              return attempt;
            });
    assertThat(allowed).isEqualTo(LIMIT);
  }

  @ParameterizedTest
  @ValueSource(strings = {"fixed", "bucket"})
  void embeddedHits_areSeenByTheServer(String key) {
    String value = "seen-" + System.nanoTime();
    Decision charged =
        first
            .shouldRateLimit("shared", List.of(Descriptor.of(key, value)), LIMIT - 1)
            .toCompletableFuture()
            .join();
    assertThat(charged.statuses().get(0).remaining()).isEqualTo(1);
    RateLimitResponse last =
        server.rls().shouldRateLimit(request("shared", descriptor(key, value)));
    assertThat(last.getOverallCode()).isEqualTo(RateLimitResponse.Code.OK);
    assertThat(last.getStatuses(0).getLimitRemaining()).isZero();
    assertThat(allowedBy(second, key, value)).isFalse();
  }

  @Test
  void unreachableRedis_failsOrAnswersByFailureMode() throws IOException {
    URI nowhere = URI.create("redis://127.0.0.1:" + closedPort());
    try (SluiceLimiter failing =
            SluiceLimiter.builder()
                .rules(RULES)
                .redis(nowhere)
                .redisTimeout(Duration.ofMillis(200))
                .build();
        SluiceLimiter allowing =
            SluiceLimiter.builder()
                .rules(RULES)
                .redis(nowhere)
                .redisTimeout(Duration.ofMillis(200))
                .failureMode(FailureMode.ALLOW)
                .build()) {
      assertThatThrownBy(
              () ->
                  failing
                      .shouldRateLimit("shared", Descriptor.of("fixed", "x"))
                      .toCompletableFuture()
                      .join())
          .isInstanceOf(CompletionException.class)
          .hasCauseInstanceOf(LimiterUnavailableException.class);
      assertThat(allowedBy(allowing, "fixed", "x")).isTrue();
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
