package dev.sluice.store.redis;

import dev.sluice.store.StoreException;
import redis.clients.jedis.Pipeline;

/**
 * One caller's request waiting in a {@link PipelineLane}: the commands to put into the lane's next
 * pipeline and where the answer goes. The answer is told once, by the lane's writer thread, or by
 * whichever thread fails the lane's queue.
 *
 * @param hits the counters the request touches, which the lane's batch cap counts; all of them go
 *     into one pipeline
 * @param commands queues the request's commands; called at most once, on the writer thread
 * @param answer told the value or the failure, once
 * @param trace the caller's {@link dev.sluice.store.BatchTrace#requestQueued} token, or null
 */
record PendingRequest<T>(int hits, Commands<T> commands, Answer<T> answer, Object trace) {

  /** Queues one request's commands into a pipeline and says how to read their replies. */
  @FunctionalInterface
  interface Commands<T> {
    Replies<T> queue(Pipeline pipeline);
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
   * value and the failure, on the lane's writer thread (or the thread failing its queue). Must be
   * short, must not block and must not throw: the writer thread calls every request of a batch in
   * turn. A {@link java.util.concurrent.CompletableFuture} taking it directly saves the stages a
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
