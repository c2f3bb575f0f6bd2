package dev.sluice.jmh;

import dev.sluice.capture.CaptureWriter;
import dev.sluice.capture.RequestCapture;
import dev.sluice.config.CaptureConfig;
import dev.sluice.config.HeaderConfig;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.RequestLimits;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.RuleSet;
import dev.sluice.service.RateLimitGrpcService;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.threads.DaemonThreadFactory;
import dev.sluice.threads.ExecutorScheduler;
import dev.sluice.tracing.Tracing;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.stub.StreamObserver;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * One {@code ShouldRateLimit} through the service (no network, memory store) with capture off (the
 * null object), at {@code --capture-sample 0.01}, and at 1.0 (every request: the writer cannot keep
 * up with millions a second, so most offers find the queue full and are dropped, which is the worst
 * case the request thread pays). The writer thread writes to a temporary file and competes for the
 * same cores. Run: {@code java -jar target/benchmarks.jar CaptureBenchmark -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CaptureBenchmark {
  @Param({"off", "0.01", "1"})
  public String capture;

  private RequestCapture writer;
  private RateLimitGrpcService service;
  private InMemoryCounterStore store;
  private ExecutorScheduler scheduler;
  private RateLimitRequest request;
  private Path dir;

  @Setup
  public void setUp() throws IOException {
    RuleSet rules =
        BenchmarkRules.single("{unit: second, requests_per_unit: 4000000000, name: bench}");
    scheduler = new ExecutorScheduler(1);
    store = new InMemoryCounterStore(Clock.systemUTC(), scheduler).start();
    SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
    dir = Files.createTempDirectory("sluice-capture-bench");
    writer =
        capture.equals("off")
            ? RequestCapture.OFF
            : new CaptureWriter(
                    new CaptureConfig(
                        Optional.of(dir.resolve("capture.jsonl")),
                        Double.parseDouble(capture),
                        false,
                        64L << 20,
                        2),
                    Clock.systemUTC(),
                    metrics,
                    new DaemonThreadFactory("bench-capture"))
                .start();
    RateLimiter limiter =
        new RateLimiter(
            () -> rules, RateLimiter.StoreChoice.of(store), LimiterConfig.defaults(), metrics);
    service =
        new RateLimitGrpcService(
            limiter,
            RequestLimits.defaults(),
            HeaderConfig.off(),
            metrics,
            Tracing.off(),
            writer,
            Clock.systemUTC());
    request =
        RateLimitRequest.newBuilder()
            .setDomain("bench")
            .addDescriptors(
                RateLimitDescriptor.newBuilder()
                    .addEntries(
                        RateLimitDescriptor.Entry.newBuilder().setKey("user").setValue("hot")))
            .build();
  }

  @TearDown
  public void tearDown() throws IOException {
    writer.close();
    store.close();
    scheduler.close();
    try (var files = Files.list(dir)) {
      for (Path file : files.toList()) {
        Files.delete(file);
      }
    }
    Files.delete(dir);
  }

  @Benchmark
  public void shouldRateLimit(Blackhole blackhole) {
    service.shouldRateLimit(request, new Sink(blackhole));
  }

  /** The response observer: the answer is consumed, nothing sent. */
  private record Sink(Blackhole blackhole) implements StreamObserver<RateLimitResponse> {
    @Override
    public void onNext(RateLimitResponse response) {
      blackhole.consume(response);
    }

    @Override
    public void onError(Throwable t) {
      blackhole.consume(t);
    }

    @Override
    public void onCompleted() {}
  }
}
