package dev.sluice.tracing;

import dev.sluice.store.Charge;
import dev.sluice.store.Charged;
import dev.sluice.store.CounterStore;
import dev.sluice.store.ForwardingStore;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;

/**
 * A span around each {@link #charge}: the store round trip of one request, from the call until its
 * answer is known, so it includes the wait for a batched Redis pipeline shared with other requests.
 * A child of the span current on the calling thread (the decision's), and itself current while the
 * store queues the request, so a Redis store's {@link PipelineSpans} can link it to the one span of
 * the pipeline that carries it. Admin reads are not traced.
 */
final class TracedCounterStore extends ForwardingStore {
  private final Tracer tracer;

  TracedCounterStore(CounterStore store, Tracer tracer) {
    super(store);
    this.tracer = tracer;
  }

  /** Ended when the answer is known: at once for one made on the calling thread (memory). */
  @Override
  public Charged charge(Charge charge) {
    Span span =
        tracer
            .spanBuilder("store acquire")
            .setSpanKind(SpanKind.CLIENT)
            .setAttribute(SpanAttributes.STORE, delegate().kind())
            .setAttribute(SpanAttributes.HITS, charge.hitCount())
            .startSpan();
    Charged answer;
    try (Scope scope = span.makeCurrent()) {
      answer = delegate().charge(charge);
    } catch (RuntimeException e) {
      end(span, e);
      throw e;
    }
    return answer.whenDone((usages, failure) -> end(span, failure));
  }

  private static void end(Span span, Throwable failure) {
    if (failure != null) {
      span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
      span.recordException(failure);
    }
    span.end();
  }
}
