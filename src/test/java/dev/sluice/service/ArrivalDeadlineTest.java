package dev.sluice.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.HeaderConfig;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.RequestLimits;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import dev.sluice.testing.RlsRequests;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A call whose caller stopped waiting before it reached the service is not matched or charged:
 * answered DEADLINE_EXCEEDED (or CANCELLED) and counted at its stage. The call's context is built
 * here as gRPC builds a server call's, already expired or cancelled, so no timer runs.
 */
class ArrivalDeadlineTest {
  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final InMemoryCounterStore store = new InMemoryCounterStore(clock, clock);
  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
  // Context.withDeadline wants a scheduler; an expired deadline never uses it (no thread starts).
  private final ScheduledThreadPoolExecutor unused = new ScheduledThreadPoolExecutor(0);
  private final RateLimitGrpcService service =
      new RateLimitGrpcService(
          new RateLimiter(
              () ->
                  InlineRules.load(
                      """
                      domain: api
                      descriptors:
                        - key: user
                          rate_limit: {unit: minute, requests_per_unit: 1}
                      """),
              RateLimiter.StoreChoice.of(store),
              LimiterConfig.defaults(),
              metrics),
          RequestLimits.defaults(),
          HeaderConfig.off(),
          metrics);

  @AfterEach
  void stop() {
    unused.shutdownNow();
  }

  /** What a call was answered. */
  private static final class Answers implements StreamObserver<RateLimitResponse> {
    final List<Object> seen = new ArrayList<>();

    @Override
    public void onNext(RateLimitResponse value) {
      seen.add(value.getOverallCode());
    }

    @Override
    public void onError(Throwable t) {
      seen.add(Status.fromThrowable(t).getCode());
    }

    @Override
    public void onCompleted() {}
  }

  private Answers callIn(Context context) {
    Answers answers = new Answers();
    context.run(
        () ->
            service.shouldRateLimit(
                RlsRequests.request("api", RlsRequests.descriptor("user", "alice")), answers));
    return answers;
  }

  private String metricsText() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.writeText(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void shouldRateLimit_deadlinePassedBeforeArrival_answersDeadlineExceededUncharged()
      throws IOException {
    Deadline passed = Deadline.after(0, TimeUnit.NANOSECONDS, new StoppedTicker());

    Answers answers = callIn(Context.ROOT.withDeadline(passed, unused));

    assertThat(answers.seen).containsExactly(Status.Code.DEADLINE_EXCEEDED);
    assertThat(metricsText()).contains("sluice_requests_expired_total{stage=\"arrival\"} 1.0");
    // The limit is 1: had the expired call been charged, this one would be over it.
    assertThat(callIn(Context.ROOT).seen).containsExactly(RateLimitResponse.Code.OK);
  }

  @Test
  void shouldRateLimit_cancelledBeforeArrival_isNotDecided() throws IOException {
    Context.CancellableContext cancelled = Context.ROOT.withCancellation();
    cancelled.cancel(null);

    Answers answers = callIn(cancelled);

    assertThat(answers.seen).containsExactly(Status.Code.CANCELLED);
    assertThat(metricsText()).contains("sluice_requests_expired_total{stage=\"cancelled\"} 1.0");
  }

  @Test
  void shouldRateLimit_deadlineAhead_decidesAsUsual() throws IOException {
    Deadline ahead = Deadline.after(1, TimeUnit.HOURS, new StoppedTicker());

    Answers answers = callIn(Context.ROOT.withDeadline(ahead, unused));

    assertThat(answers.seen).containsExactly(RateLimitResponse.Code.OK);
    assertThat(metricsText()).doesNotContain("sluice_requests_expired_total{");
  }

  /** A ticker that never moves: a deadline is then exactly as far away as it was made. */
  private static final class StoppedTicker extends Deadline.Ticker {
    @Override
    public long nanoTime() {
      return 0;
    }
  }
}
