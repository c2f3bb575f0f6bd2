package dev.sluice.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

/** {@link RlqsTurnSpan} over an OpenTelemetry span started when the turn began. */
final class OtelRlqsTurnSpan implements RlqsTurnSpan {
  private final Span span;

  OtelRlqsTurnSpan(Span span) {
    this.span = span;
  }

  @Override
  public void ended(Turn turn) {
    span.setAttribute(SpanAttributes.DOMAINS, turn.domains());
    span.setAttribute(SpanAttributes.RLQS_STREAMS, turn.streams());
    span.setAttribute(SpanAttributes.RLQS_BUCKETS, turn.buckets());
    span.setAttribute(SpanAttributes.RLQS_ASSIGNMENTS_SENT, turn.assignmentsSent());
    span.end();
  }

  @Override
  public void failed(RuntimeException error) {
    span.recordException(error);
    span.setStatus(StatusCode.ERROR, String.valueOf(error.getMessage()));
    span.end();
  }
}
