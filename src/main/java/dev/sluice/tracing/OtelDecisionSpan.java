package dev.sluice.tracing;

import dev.sluice.limiter.CurrentLimit;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.DescriptorDecision;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import java.util.List;
import java.util.Optional;

/** One recorded {@code ShouldRateLimit} span. */
final class OtelDecisionSpan implements DecisionSpan {
  private final Span span;

  OtelDecisionSpan(Span span) {
    this.span = span;
  }

  @Override
  public Scope activate() {
    return span.makeCurrent();
  }

  @Override
  public void decided(Decision decision) {
    span.setAttribute(SpanAttributes.OVERALL_CODE, decision.overall().name());
    span.setAttribute(SpanAttributes.RULES, ruleNames(decision));
    span.end();
  }

  @Override
  public void failed(String statusCode, String description) {
    span.setAttribute(SpanAttributes.GRPC_STATUS, statusCode);
    span.setStatus(StatusCode.ERROR, description);
    span.end();
  }

  /** The configured names of the rules that answered, in request order, each once. */
  private static List<String> ruleNames(Decision decision) {
    return decision.statuses().stream()
        .map(DescriptorDecision::currentLimit)
        .flatMap(Optional::stream)
        .map(CurrentLimit::name)
        .filter(name -> !name.isEmpty())
        .distinct()
        .toList();
  }
}
