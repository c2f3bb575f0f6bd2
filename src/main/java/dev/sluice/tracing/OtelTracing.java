package dev.sluice.tracing;

import dev.sluice.config.TracingConfig;
import dev.sluice.store.BatchTrace;
import dev.sluice.store.CounterStore;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;

/**
 * Tracing on: spans from the OpenTelemetry SDK ({@link TracingSdk} builds it from the flags and the
 * {@code OTEL_*} variables). The trace context is read from each call's gRPC headers by the
 * interceptor and handed to the service through the gRPC context of that call. Thread-safe.
 */
public final class OtelTracing implements Tracing {
  static final String INSTRUMENTATION = "dev.sluice";

  /** The trace context Envoy sent with the current call; root when it sent none. */
  private static final io.grpc.Context.Key<Context> PARENT = io.grpc.Context.key("sluice-trace");

  private final Tracer tracer;
  private final TextMapPropagator propagator;
  private final AutoCloseable sdk;
  private final PipelineSpans pipelines;

  /**
   * @param sdk closed by {@link #close}: flushes and stops the exporter
   */
  public OtelTracing(OpenTelemetry openTelemetry, AutoCloseable sdk) {
    this.tracer = openTelemetry.getTracer(INSTRUMENTATION);
    this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
    this.sdk = sdk;
    this.pipelines = new PipelineSpans(tracer);
  }

  /** Tracing as {@code config} and the {@code OTEL_*} environment say. */
  public static OtelTracing create(TracingConfig config) {
    var sdk = TracingSdk.build(config);
    return new OtelTracing(sdk, sdk);
  }

  @Override
  public ServerServiceDefinition intercept(ServerServiceDefinition service) {
    return ServerInterceptors.intercept(service, new Extract());
  }

  @Override
  public CounterStore store(CounterStore store) {
    return new TracedCounterStore(store, tracer);
  }

  @Override
  public BatchTrace batches() {
    return pipelines;
  }

  @Override
  public DecisionSpan startDecision(String domain, int descriptorCount) {
    Context parent = PARENT.get();
    Span span =
        tracer
            .spanBuilder("ShouldRateLimit")
            .setParent(parent == null ? Context.root() : parent)
            .setSpanKind(SpanKind.SERVER)
            .setAttribute("rpc.system", "grpc")
            .setAttribute("rpc.service", "envoy.service.ratelimit.v3.RateLimitService")
            .setAttribute("rpc.method", "ShouldRateLimit")
            .setAttribute(SpanAttributes.DOMAIN, domain)
            .setAttribute(SpanAttributes.DESCRIPTORS, descriptorCount)
            .startSpan();
    return new OtelDecisionSpan(span);
  }

  @Override
  public RlqsTurnSpan startRlqsTurn() {
    return new OtelRlqsTurnSpan(
        tracer
            .spanBuilder("RLQS turn")
            .setParent(Context.root())
            .setSpanKind(SpanKind.INTERNAL)
            .startSpan());
  }

  @Override
  public void close() {
    try {
      sdk.close();
    } catch (Exception e) {
      throw new IllegalStateException("closing the tracing SDK failed: " + e, e);
    }
  }

  /** Reads {@code traceparent} / B3 headers into the call's gRPC context. */
  private final class Extract implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      Context parent = propagator.extract(Context.root(), headers, MetadataGetter.INSTANCE);
      return Contexts.interceptCall(
          io.grpc.Context.current().withValue(PARENT, parent), call, headers, next);
    }
  }

  private enum MetadataGetter implements TextMapGetter<Metadata> {
    INSTANCE;

    @Override
    public Iterable<String> keys(Metadata carrier) {
      return carrier.keys();
    }

    @Override
    public String get(Metadata carrier, String key) {
      if (carrier == null || key.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
        return null;
      }
      return carrier.get(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER));
    }
  }
}
