package dev.sluice.tracing;

import dev.sluice.store.BatchTrace;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code redis pipeline} span per pipeline a Redis lane sends, however many requests share it:
 * each request's {@code store acquire} span (current on the caller's thread when it queues, see
 * {@link TracedCounterStore}) gets a link to it, and it links back to each of them. Its parent is
 * the first sampled request's store span, so it is exported in that trace; a pipeline carrying no
 * sampled request makes no span at all. {@link #requestQueued} runs on the request's thread, {@link
 * #batchSent} on the lane's writer thread. Thread-safe.
 */
final class PipelineSpans implements BatchTrace {
  static final AttributeKey<Long> REQUESTS = AttributeKey.longKey("sluice.pipeline.requests");
  private static final AttributeKey<String> SERVER = AttributeKey.stringKey("server.address");
  private static final AttributeKey<String> DB_SYSTEM = AttributeKey.stringKey("db.system");

  private final Tracer tracer;

  PipelineSpans(Tracer tracer) {
    this.tracer = tracer;
  }

  @Override
  public Object requestQueued() {
    Span current = Span.current();
    return current.getSpanContext().isSampled() ? current : null;
  }

  @Override
  public Round batchSent(String node, List<Object> requests, int hits) {
    List<Span> carried = new ArrayList<>(requests.size());
    for (Object request : requests) {
      if (request instanceof Span span) {
        carried.add(span);
      }
    }
    if (carried.isEmpty()) {
      return Round.NONE;
    }
    SpanBuilder builder =
        tracer
            .spanBuilder("redis pipeline")
            .setParent(Context.root().with(carried.get(0)))
            .setSpanKind(SpanKind.CLIENT)
            .setAttribute(DB_SYSTEM, "redis")
            .setAttribute(SERVER, node)
            .setAttribute(REQUESTS, (long) requests.size())
            .setAttribute(SpanAttributes.HITS, (long) hits);
    for (Span request : carried) {
      builder.addLink(request.getSpanContext());
    }
    Span pipeline = builder.startSpan();
    for (Span request : carried) {
      request.addLink(pipeline.getSpanContext());
    }
    return failure -> {
      if (failure != null) {
        pipeline.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
      }
      pipeline.end();
    };
  }
}
