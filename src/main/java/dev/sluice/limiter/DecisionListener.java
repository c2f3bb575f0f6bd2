package dev.sluice.limiter;

/**
 * Told about every counted descriptor once its answer is known, next to the metrics. Called on the
 * thread that completes the decision (a gRPC thread, or a Redis lane's thread), so an
 * implementation must be thread-safe and cheap; it must not block or throw.
 */
@FunctionalInterface
public interface DecisionListener {
  /** The listener of a limiter nobody watches. */
  DecisionListener NONE = outcome -> {};

  void counted(CountedOutcome outcome);
}
