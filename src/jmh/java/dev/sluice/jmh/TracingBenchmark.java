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
import dev.sluice.tracing.OtelTracing;
import dev.sluice.tracing.Tracing;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.Collection;
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
 * One {@code ShouldRateLimit} through the service (no network, memory store) with tracing {@code
 * off} (the null object Sluice runs by default) and {@code on}: every decision sampled, two spans
 * (decision and store) handed to a batch span processor whose exporter drops them, so the figure is
 * Sluice's cost per traced decision without the collector's. Run: {@code java -jar
 * target/benchmarks.jar TracingBenchmark -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TracingBenchmark {
  @Param({"off", "on"})
  public String tracing;

  private Tracing traces;
  private RateLimitGrpcService service;
  private InMemoryCounterStore store;
  private ExecutorScheduler scheduler;
  private RateLimitRequest request;

  @Setup
  public void setUp() {
    RuleSet rules =
        BenchmarkRules.single("{unit: second, requests_per_unit: 4000000000, name: bench}");
    scheduler = new ExecutorScheduler(1);
    store = new InMemoryCounterStore(Clock.systemUTC(), scheduler).start();
    traces = tracing.equals("on") ? sampledToNowhere() : Tracing.off();
    SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
    RateLimiter limiter =
        new RateLimiter(
            () -> rules,
            RateLimiter.StoreChoice.of(traces.store(store)),
            LimiterConfig.defaults(),
            metrics);
    service =
        new RateLimitGrpcService(
            limiter, RequestLimits.defaults(), HeaderConfig.off(), metrics, traces);
    request =
        RateLimitRequest.newBuilder()
            .setDomain("bench")
            .addDescriptors(
                RateLimitDescriptor.newBuilder()
                    .addEntries(
                        RateLimitDescriptor.Entry.newBuilder().setKey("user").setValue("hot")))
            .build();
  }

  private static Tracing sampledToNowhere() {
    SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .setSampler(Sampler.alwaysOn())
            .addSpanProcessor(BatchSpanProcessor.builder(new DroppingExporter()).build())
            .build();
    OpenTelemetrySdk sdk =
        OpenTelemetrySdk.builder()
            .setTracerProvider(provider)
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    return new OtelTracing(sdk, sdk);
  }

  @TearDown
  public void tearDown() {
    traces.close();
    store.close();
    scheduler.close();
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

  private static final class DroppingExporter implements SpanExporter {
    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }
}
