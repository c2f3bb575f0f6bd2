package dev.sluice.store;

/**
 * Whether the caller of one request still waits for its answer: a request whose caller has gone, or
 * whose deadline has passed, is not worth sending to a store, because nobody reads the answer and a
 * charge made for it would be a hit nobody asked for. The gRPC service gives each call's deadline
 * and cancellation ({@code service.GrpcPatience}); callers without either (the embedded limiter,
 * admin tools, synced counters) wait {@link #ENDLESS}ly.
 *
 * <p>Implementations are thread-safe: {@link #state} is read on the calling thread when a request
 * reaches a store and again on a Redis lane's writer thread just before it is written.
 */
@FunctionalInterface
public interface Patience {

  /** A caller with no deadline that never goes away. */
  Patience ENDLESS = () -> State.WAITING;

  /** Where a caller is now. */
  enum State {
    /** Still waiting for the answer. */
    WAITING,
    /** Its deadline has passed (the transport may already have told it so). */
    PAST_DEADLINE,
    /** It cancelled the call, or its connection went away. */
    CANCELLED
  }

  /** Where the caller is now; cheap (a volatile read or two), called once or twice per request. */
  State state();

  /**
   * The patience of the request being handled on the calling thread. A store asks it on the thread
   * that calls it, so a gRPC implementation reads the call's context there.
   */
  @FunctionalInterface
  interface Source {
    /** Every caller waits without end: for stores outside a gRPC server. */
    Source NONE = () -> ENDLESS;

    Patience current();
  }
}
