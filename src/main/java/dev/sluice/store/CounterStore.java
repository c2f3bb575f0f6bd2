package dev.sluice.store;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Counts hits for both algorithms. Implementations are thread-safe and atomic per counter: two
 * stores sharing one backend (two Sluice instances on one Redis) never lose a hit.
 */
public interface CounterStore extends AutoCloseable {

  /**
   * Applies every hit of one request and reports each counter's usage, in the order of {@code
   * hits}. An empty list completes at once with an empty list. The future may complete on a thread
   * of the store (Redis: a lane's writer thread, which sends its next batch only after the stages
   * chained on it return), so callers chain only short, non-blocking work, or hand it to an
   * executor; the limiter's choice is {@code RateLimiter.StoreChoice#completions}. The future fails
   * with {@link StoreException} when the backend cannot answer; then no usage is reported for any
   * hit.
   */
  default CompletableFuture<List<Usage>> acquire(List<Hit> hits) {
    return acquire(Charge.independent(hits));
  }

  /**
   * Decides and charges a whole request in one atomic step: which hits are charged follows {@link
   * Charge#decide}, and no other request's hits on the same counters interleave with it (Redis: one
   * script on one node; a cluster whose groups live on several nodes charges each node, then
   * refunds what a refused request must not keep, so in between a counter can read higher than it
   * will end). Answers one usage per hit of {@link Charge#hits()}, in order; a hit that was not
   * charged reports what is left ({@code remaining}, {@code untilReset}) without it, and whether it
   * would have fit ({@code overLimit}). Threads and failures as {@link #acquire(List)}.
   */
  CompletableFuture<List<Usage>> acquire(Charge charge);

  /**
   * {@link #acquire(Charge)} answered on the calling thread, for a store that can (memory): the
   * same usages, without a future to carry them (issue 16). Null when the store must answer later,
   * and then nothing was charged or recorded: the caller calls {@link #acquire(Charge)}. The
   * default, for a store across a network, is always null.
   *
   * @throws StoreException when the backend cannot answer; then no usage is reported for any hit
   */
  default List<Usage> tryAcquireNow(Charge charge) {
    return null;
  }

  /**
   * One hit charged by its algorithm alone ({@link Charge.Policy#EACH}) on the calling thread: what
   * {@link #tryAcquireNow(Charge)} answers for the charge of that hit alone, without the charge,
   * its group and the usage list around it (issue 16: the usual request, one descriptor with one
   * limit). Null when the store must answer later, as there; the default asks {@link
   * #tryAcquireNow(Charge)}, so a store only overrides this to save those objects.
   *
   * @throws StoreException as {@link #tryAcquireNow(Charge)}
   */
  default Usage tryChargeAloneNow(Hit hit) {
    List<Usage> usages = tryAcquireNow(Charge.independent(List.of(hit)));
    return usages == null ? null : usages.get(0);
  }

  /**
   * Whether {@link #tryAcquireNow} can answer at all, fixed for the store's life: a wrapper asks
   * before doing its own per-call work (a breaker permission) for an answer that will never come.
   */
  default boolean answersOnCallingThread() {
    return false;
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
