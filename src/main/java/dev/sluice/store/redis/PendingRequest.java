package dev.sluice.store.redis;

import dev.sluice.store.Patience;
import dev.sluice.store.StoreException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import redis.clients.jedis.Pipeline;

/**
 * One caller's request waiting in a {@link PipelineLane}: the commands to put into the lane's next
 * pipeline, where the answer goes, and its caller's {@link Patience}. The answer is told once, by
 * the lane's writer thread, or by whichever thread drops it from the queue or fails the queue.
 *
 * <p>Leaving the queue is a {@link #claim}: the writer claims a request it takes into a batch, a
 * thread dropping an expired one claims it first; whoever wins owns the request (its answer and its
 * hits in the lane's count), the other passes it by.
 */
final class PendingRequest<T> {
  // A field and a VarHandle rather than an AtomicBoolean: one object less per request.
  private static final VarHandle CLAIMED;

  static {
    try {
      CLAIMED =
          MethodHandles.lookup().findVarHandle(PendingRequest.class, "claimed", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final int hits;
  private final Commands<T> commands;
  private final Answer<T> answer;
  private final Object trace;
  private final Patience patience;
  private volatile boolean claimed;

  /**
   * @param hits the counters the request touches, which the lane's batch cap counts; all of them go
   *     into one pipeline
   * @param commands queues the request's commands; called at most once, on the writer thread
   * @param answer told the value or the failure, once
   * @param trace the caller's {@link dev.sluice.store.BatchTrace#requestQueued} token, or null
   */
  PendingRequest(
      int hits, Commands<T> commands, Answer<T> answer, Object trace, Patience patience) {
    this.hits = hits;
    this.commands = commands;
    this.answer = answer;
    this.trace = trace;
    this.patience = patience;
  }

  int hits() {
    return hits;
  }

  Commands<T> commands() {
    return commands;
  }

  Object trace() {
    return trace;
  }

  /** Whether its caller still waits; read just before it is written or when it is dropped. */
  Patience.State callerState() {
    return patience.state();
  }

  /** True for the one thread that takes this request out of the queue; false for any other. */
  boolean claim() {
    return !claimed && CLAIMED.compareAndSet(this, false, true);
  }

  /** Queues one request's commands into a pipeline and says how to read their replies. */
  @FunctionalInterface
  interface Commands<T> {
    Replies<T> queue(LanePipeline lane);
  }

  /** The replies to one request's commands, read once the pipeline has synced. */
  @FunctionalInterface
  interface Replies<T> {
    /**
     * Queues again on {@code retry}, with EVAL, every script call Redis answered NOSCRIPT, and says
     * whether there was one; only those calls, so nothing else of the request runs twice.
     */
    default boolean resendMissingScripts(Pipeline retry) {
      return false;
    }

    /**
     * The answer.
     *
     * @throws StoreException when a reply is not what the commands return
     * @throws redis.clients.jedis.exceptions.JedisException when a reply is an error
     */
    T value();
  }

  /**
   * Where a request's answer goes: called once, with the value and a null failure or with a null
   * value and the failure, on the lane's writer thread (or the thread failing or dropping it). Must
   * be short, must not block and must not throw: the writer thread calls every request of a batch
   * in turn. A {@link java.util.concurrent.CompletableFuture} taking it directly saves the stages a
   * future returned by the lane would need.
   */
  @FunctionalInterface
  interface Answer<T> {
    void accept(T value, StoreException failure);
  }

  void succeed(T value) {
    answer.accept(value, null);
  }

  void fail(StoreException failure) {
    answer.accept(null, failure);
  }
}
