package dev.sluice.tracing;

import dev.sluice.limiter.Decision;
import dev.sluice.store.BatchTrace;
import dev.sluice.store.CounterStore;
import io.grpc.ServerServiceDefinition;
import io.opentelemetry.context.Scope;

/**
 * Tracing off: the service and the store are handed back as they are, and the spans are constants.
 */
enum NoTracing implements Tracing, DecisionSpan, RlqsTurnSpan {
  INSTANCE;

  @Override
  public ServerServiceDefinition intercept(ServerServiceDefinition service) {
    return service;
  }

  @Override
  public CounterStore store(CounterStore store) {
    return store;
  }

  @Override
  public BatchTrace batches() {
    return BatchTrace.NONE;
  }

  @Override
  public DecisionSpan startDecision(String domain, int descriptorCount) {
    return this;
  }

  @Override
  public RlqsTurnSpan startRlqsTurn() {
    return this;
  }

  @Override
  public void ended(Turn turn) {}

  @Override
  public void failed(RuntimeException error) {}

  @Override
  public Scope activate() {
    return Scope.noop();
  }

  @Override
  public void decided(Decision decision) {}

  @Override
  public void failed(String statusCode, String description) {}

  @Override
  public void close() {}
}
