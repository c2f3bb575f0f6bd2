package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Entry;
import dev.sluice.server.GrpcServer;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The load generator against a real Sluice and against the do-nothing server, ~1 s each. */
class LoadGeneratorIT {
  private static final int LIMIT = 50;
  private static final String RULES =
      """
      domain: bench
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: %d}
      """
          .formatted(LIMIT);

  /** Mid-hour and standing still, so the hour window cannot roll over during a run. */
  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);

  private final RunningSluice sluice = RunningSluice.withRules(RULES, clock);

  @AfterEach
  void stop() {
    sluice.close();
  }

  private BenchConfig config(int port, double rate, KeyMode keys, int descriptors) {
    RequestTemplate requests =
        new RequestTemplate("bench", List.of(new Entry("user", "")), descriptors, 0);
    return new BenchConfig(
        new Target("127.0.0.1", port),
        8,
        2,
        rate,
        Duration.ZERO,
        Duration.ofSeconds(1),
        Duration.ofSeconds(5),
        requests,
        keys);
  }

  private static void assertCountsAddUp(BenchResult result) {
    BenchResult.Counts counts = result.counts();
    assertThat(counts.ok() + counts.overLimit() + counts.errorCount()).isEqualTo(counts.sent());
  }

  @Test
  void closedLoop_hotKeyLimitPerHour_exactlyLimitOkAndTheRestOverLimit() throws Exception {
    BenchResult result = LoadGenerator.run(config(sluice.sluice().grpcPort(), 0, KeyMode.hot(), 1));

    assertCountsAddUp(result);
    assertThat(result.counts().sent()).isGreaterThan(LIMIT);
    assertThat(result.counts().ok()).isEqualTo(LIMIT);
    assertThat(result.counts().overLimit()).isEqualTo(result.counts().sent() - LIMIT);
    assertThat(result.counts().errors()).isEmpty();
    assertThat(result.latency().count()).isEqualTo(result.counts().sent());
    assertThat(result.latency().p50Nanos()).isPositive();
    assertThat(result.processCpuNanos()).isPositive();
  }

  @Test
  void closedLoop_randomKeysFourDescriptors_everyRequestOk() throws Exception {
    BenchResult result =
        LoadGenerator.run(config(sluice.sluice().grpcPort(), 0, KeyMode.random(), 4));

    assertCountsAddUp(result);
    assertThat(result.counts().sent()).isPositive();
    assertThat(result.counts().ok()).isEqualTo(result.counts().sent());
  }

  @Test
  void openLoop_fixedRate_sendsRateTimesDurationWithWarmupLeftOut() throws Exception {
    BenchConfig config = config(sluice.sluice().grpcPort(), 200, KeyMode.roundRobin(10), 1);
    config =
        new BenchConfig(
            config.target(),
            config.concurrency(),
            config.channels(),
            config.ratePerSecond(),
            Duration.ofMillis(300),
            config.duration(),
            config.timeout(),
            config.requests(),
            config.keys());

    List<String> phases = new CopyOnWriteArrayList<>();
    BenchResult result =
        LoadGenerator.run(
            config,
            new LoadGenerator.Phases() {
              @Override
              public void measuring() {
                phases.add("measuring");
              }

              @Override
              public void windowClosed() {
                phases.add("closed");
              }
            });

    assertCountsAddUp(result);
    assertThat(phases).containsExactly("measuring", "closed");
    assertThat(result.setup().mode()).isEqualTo("open");
    // 200/s for 1 s from an offset that is a whole number of intervals: exactly 200.
    assertThat(result.counts().sent()).isEqualTo(200);
    // 10 keys, 50 per key per hour: warmup (60) plus window (200) stays below 500.
    assertThat(result.counts().ok()).isEqualTo(200);
  }

  @Test
  void doNothingServer_answersOkToEveryRequest() throws Exception {
    try (GrpcServer server = BenchServer.start(0)) {
      BenchResult result = LoadGenerator.run(config(server.port(), 0, KeyMode.hot(), 4));

      assertCountsAddUp(result);
      assertThat(result.counts().ok()).isEqualTo(result.counts().sent()).isPositive();
    }
  }

  /**
   * Open loop against a server that answers one request at a time, each 20 ms after it arrived,
   * while requests are due every 5 ms: the server falls further behind with every request. Request
   * i cannot be answered before 20 (i + 1) ms from the start but was due at 5 i ms, so measured
   * from its due time the median of 100 requests is at least 15 * 50 ms. Measured from the actual
   * send (coordinated omission: the sender waits for the one in-flight slot) every request would
   * show about 20 ms.
   */
  @Test
  void openLoop_serverFallingBehind_latencyCountsFromTheDueTimeNotTheSend() throws Exception {
    ScheduledExecutorService answers = Executors.newSingleThreadScheduledExecutor();
    Server slow =
        ServerBuilder.forPort(0).addService(new AnswersAfter(answers, 20)).build().start();
    try {
      BenchConfig base = config(slow.getPort(), 200, KeyMode.hot(), 1);
      BenchConfig oneInFlight =
          new BenchConfig(
              base.target(),
              1,
              1,
              base.ratePerSecond(),
              Duration.ZERO,
              Duration.ofMillis(500),
              Duration.ofSeconds(10),
              base.requests(),
              base.keys());

      BenchResult result = LoadGenerator.run(oneInFlight);

      assertCountsAddUp(result);
      assertThat(result.counts().sent()).isEqualTo(100);
      assertThat(result.counts().ok()).isEqualTo(100);
      assertThat(result.latency().p50Nanos()).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(700));
      assertThat(result.latency().maxNanos()).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(1400));
    } finally {
      slow.shutdownNow();
      answers.shutdownNow();
    }
  }

  /** Answers OK a fixed time after each request arrived, from a scheduler (no thread sleeps). */
  private static final class AnswersAfter extends RateLimitServiceGrpc.RateLimitServiceImplBase {
    private final ScheduledExecutorService scheduler;
    private final long delayMillis;

    AnswersAfter(ScheduledExecutorService scheduler, long delayMillis) {
      this.scheduler = scheduler;
      this.delayMillis = delayMillis;
    }

    @Override
    public void shouldRateLimit(
        RateLimitRequest request, StreamObserver<RateLimitResponse> response) {
      scheduler.schedule(
          () -> {
            response.onNext(
                RateLimitResponse.newBuilder().setOverallCode(RateLimitResponse.Code.OK).build());
            response.onCompleted();
          },
          delayMillis,
          TimeUnit.MILLISECONDS);
    }
  }

  @Test
  void nothingListening_everyRequestIsAnErrorAndCountsStillAddUp() throws Exception {
    int freePort;
    try (ServerSocket socket = new ServerSocket(0)) {
      freePort = socket.getLocalPort();
    }

    BenchResult result = LoadGenerator.run(config(freePort, 100, KeyMode.hot(), 1));

    assertCountsAddUp(result);
    assertThat(result.counts().sent()).isEqualTo(100);
    assertThat(result.counts().errors()).containsOnlyKeys("UNAVAILABLE");
    assertThat(result.firstErrors()).containsOnlyKeys("UNAVAILABLE");
    assertThat(result.decisionsPerSecond()).isZero();
  }
}
