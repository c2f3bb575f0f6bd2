package dev.sluice.store;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Counts hits for both algorithms. Implementations are thread-safe and atomic per counter: two
 * stores sharing one backend (two Sluice instances on one Redis) never lose a hit.
 */
public interface CounterStore extends AutoCloseable {

  /**
   * Decides and charges a whole request in one atomic step: which hits are charged follows {@link
   * Charge#decide}, and no other request's hits on the same counters interleave with it (Redis: one
   * script on one node; a cluster whose groups live on several nodes charges each node, then
   * refunds what a refused request must not keep, so in between a counter can read higher than it
   * will end). Answers one usage per hit of {@link Charge#hits()}, in order; a hit that was not
   * charged reports what is left ({@code remaining}, {@code untilReset}) without it, and whether it
   * would have fit ({@code overLimit}). An empty charge answers an empty list.
   *
   * <p>The one request-path method of a store, and the only one a decorator forwards: a store that
   * charges on the calling thread (memory) answers {@link Charged.Now}, without a future; a store
   * across a network answers {@link Charged.Later}, whose future may complete on a thread of the
   * store (Redis: a lane's writer thread, which sends its next batch only after the stages chained
   * on it return), so callers chain only short, non-blocking work, or hand it to an executor; the
   * limiter's choice is {@code RateLimiter.StoreChoice#completions}. When the backend cannot
   * answer, the answer is a {@link Charged.Later} failed with {@link StoreException} (also when
   * that is known at once), and no usage is reported for any hit.
   */
  Charged charge(Charge charge);

  /**
   * {@link #charge} of {@code hits}, each charged by its own algorithm, as a future: for callers
   * that wait anyway (tests, tools). Not for decorators to override: they forward {@link #charge}.
   */
  default CompletableFuture<List<Usage>> acquire(List<Hit> hits) {
    return charge(Charge.independent(hits)).future();
  }

  /**
   * Reads the counter of {@code hit} (its hits are ignored) without changing or creating it. For
   * operators, not for the request path.
   */
  CompletableFuture<CounterState> inspect(Hit hit);

  /**
   * Removes the counter of {@code hit}: the current window, or the bucket (which then reads full).
   * {@link CounterState#exists()} says whether there was one; its usage is the state before.
   */
  CompletableFuture<CounterState> reset(Hit hit);

  /**
   * Checks that the backend answers.
   *
   * @throws StoreException when it does not
   */
  void ping();

  /** A short name for logs and metric labels: {@code memory} or {@code redis}. */
  String kind();

  /** Releases connections and threads; idempotent. */
  @Override
  void close();
}
