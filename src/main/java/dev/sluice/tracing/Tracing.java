package dev.sluice.tracing;

import dev.sluice.store.BatchTrace;
import dev.sluice.store.CounterStore;
import io.grpc.ServerServiceDefinition;

/**
 * What the service and the composition root ask of tracing. Two implementations: {@link #off()}
 * hands everything back unchanged, {@link OtelTracing} records spans.
 */
public interface Tracing extends AutoCloseable {

  /** The RLS service, reading the trace context from each call's headers. */
  ServerServiceDefinition intercept(ServerServiceDefinition service);

  /** The store, with a span around each {@code charge} (the store round trip). */
  CounterStore store(CounterStore store);

  /**
   * What a store that batches requests reports each shared round trip to: one span per Redis
   * pipeline, linked from every request it carried.
   */
  BatchTrace batches();

  /**
   * Starts the span of one {@code ShouldRateLimit} call, a child of the caller's trace context when
   * {@link #intercept} found one. Never throws.
   */
  DecisionSpan startDecision(String domain, int descriptorCount);

  /**
   * Starts the span of one RLQS server turn, a root span (the turn runs on the scheduler, for no
   * caller). Never throws.
   */
  RlqsTurnSpan startRlqsTurn();

  /** Flushes the spans not yet exported and stops the exporter. */
  @Override
  void close();

  static Tracing off() {
    return NoTracing.INSTANCE;
  }
}
