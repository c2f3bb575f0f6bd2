package dev.sluice.tracing;

import dev.sluice.limiter.Decision;
import io.opentelemetry.context.Scope;

/** The span of one decision; ends exactly once, by {@link #decided} or {@link #failed}. */
public interface DecisionSpan {

  /**
   * Makes this span the current one on this thread, so that the store span started while deciding
   * is its child. Close the scope on the same thread before returning.
   */
  Scope activate();

  /** Records the overall code and the rules that answered, and ends the span. */
  void decided(Decision decision);

  /** Records the gRPC status the call failed with, and ends the span. */
  void failed(String statusCode, String description);
}
