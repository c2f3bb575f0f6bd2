package dev.sluice.jmh;

import dev.sluice.config.HeaderConfig;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.RequestLimits;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.RuleSet;
import dev.sluice.service.RateLimitGrpcService;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.threads.ExecutorScheduler;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.stub.StreamObserver;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One ShouldRateLimit through the service adapter without gRPC: an already parsed {@link
 * RateLimitRequest} mapped to a call, decided on the memory store (hot keys) and answered with a
 * {@link RateLimitResponse}, as a gRPC thread runs it; {@link LimiterBenchmark} without request
 * conversion and response building. Headers and tracing off, as by default.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ServiceBenchmark {
  @Param({"1", "4"})
  public int descriptors;

  /** Both algorithms, so a difference between them on the answer path shows here (issue 24). */
  @Param({"fixed_window", "token_bucket"})
  public String algorithm;

  private RateLimitGrpcService service;
  private InMemoryCounterStore store;
  private ExecutorScheduler scheduler;
  private RateLimitRequest request;
  private final LastResponse responses = new LastResponse();

  /** Keeps the answer so nothing is optimised away; the benchmark thread is the only caller. */
  static final class LastResponse implements StreamObserver<RateLimitResponse> {
    RateLimitResponse last;

    @Override
    public void onNext(RateLimitResponse response) {
      last = response;
    }

    @Override
    public void onError(Throwable failure) {
      throw new IllegalStateException(failure);
    }

    @Override
    public void onCompleted() {}
  }

  @Setup
  public void setUp() {
    RuleSet rules =
        BenchmarkRules.single(
            "{unit: second, requests_per_unit: 4000000000, algorithm: " + algorithm + "}");
    scheduler = new ExecutorScheduler(1);
    store = new InMemoryCounterStore(Clock.systemUTC(), scheduler).start();
    SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
    RateLimiter limiter =
        new RateLimiter(
            () -> rules, RateLimiter.StoreChoice.of(store), LimiterConfig.defaults(), metrics);
    service =
        new RateLimitGrpcService(limiter, RequestLimits.defaults(), HeaderConfig.off(), metrics);
    RateLimitRequest.Builder built = RateLimitRequest.newBuilder().setDomain("bench");
    for (int i = 0; i < descriptors; i++) {
      built.addDescriptors(
          RateLimitDescriptor.newBuilder()
              .addEntries(
                  RateLimitDescriptor.Entry.newBuilder()
                      .setKey("user")
                      .setValue(descriptors == 1 ? "hot" : "hot." + i)));
    }
    request = built.build();
  }

  @TearDown
  public void tearDown() {
    store.close();
    scheduler.close();
  }

  @Benchmark
  public RateLimitResponse shouldRateLimit() {
    service.shouldRateLimit(request, responses);
    return responses.last;
  }
}
