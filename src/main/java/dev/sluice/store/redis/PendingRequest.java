package dev.sluice.store.redis;

import dev.sluice.store.StoreException;
import java.util.concurrent.CompletableFuture;
import redis.clients.jedis.Pipeline;

/**
 * One caller's request waiting in a {@link PipelineLane}: the commands to put into the lane's next
 * pipeline and the future that gets the answer. The future is completed once, by the lane's writer
 * thread, or by whichever thread fails the lane's queue.
 *
 * @param hits the counters the request touches, which the lane's batch cap counts; all of them go
 *     into one pipeline
 * @param commands queues the request's commands; called at most once, on the writer thread
 * @param trace the caller's {@link dev.sluice.store.BatchTrace#requestQueued} token, or null
 */
record PendingRequest<T>(
    int hits, Commands<T> commands, CompletableFuture<T> future, Object trace) {

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

  void fail(StoreException failure) {
    future.completeExceptionally(failure);
  }
}
