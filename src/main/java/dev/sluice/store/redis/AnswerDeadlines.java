package dev.sluice.store.redis;

import dev.sluice.store.StoreException;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Fails every watched answer still pending at the end of its answer time, with the {@link
 * StoreException} {@code late} makes, whatever the lanes are doing; an answer that came in time is
 * left alone.
 *
 * <p>Why not {@link CompletableFuture#orTimeout} per request: that puts one task per request into
 * the JDK's one delay queue, a heap behind one lock that 32 callers insert into and the lane
 * threads remove from on every answer; it was about 7 % of the embedded limiter's CPU per decision
 * and most of its lock parks. Every request here has the same answer time, so the order in which
 * they are watched is the order of their deadlines: one lock-free queue, a timer that looks only at
 * its head (dropping answered ones on the way), and nothing to cancel when an answer arrives. The
 * timer runs only while something is watched, at most every {@code tickNanos}, so an answer is
 * failed at most a tick after its deadline, and an answered one is dropped about a tick after it
 * was watched.
 *
 * <p>Thread-safe: {@link #watch} from any thread; the checks run on the timer's thread (the JDK's
 * delay thread by default), one at a time.
 */
final class AnswerDeadlines {
  /** Runs a task once, after a delay. */
  @FunctionalInterface
  interface Timer {
    void schedule(Runnable task, long delayNanos);

    /**
     * On the JDK's delay thread, which orTimeout uses, and run there: the default executor of
     * {@link CompletableFuture#delayedExecutor} is the common pool, which on fewer than 3 CPUs
     * starts a new thread for every task.
     */
    Timer JDK =
        (task, delayNanos) ->
            CompletableFuture.delayedExecutor(delayNanos, TimeUnit.NANOSECONDS, Runnable::run)
                .execute(task);
  }

  private final long answerNanos;
  private final long tickNanos;
  private final Supplier<StoreException> late;
  private final Timer timer;
  private final LongSupplier nanoTime;
  private final Queue<Watched> watched = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean armed = new AtomicBoolean();

  /**
   * @param answerNanos how long an answer may take, from {@link #watch}
   * @param late the failure of an answer that took longer
   * @param nanoTime {@link System#nanoTime}, or a test's
   */
  AnswerDeadlines(
      long answerNanos, Supplier<StoreException> late, Timer timer, LongSupplier nanoTime) {
    if (answerNanos <= 0) {
      throw new IllegalArgumentException("answer time must be positive: " + answerNanos + " ns");
    }
    this.answerNanos = answerNanos;
    this.tickNanos = Math.max(1, answerNanos / 8);
    this.late = late;
    this.timer = timer;
    this.nanoTime = nanoTime;
  }

  /** Fails {@code answer} with {@code late} if it is still pending after the answer time. */
  void watch(CompletableFuture<?> answer) {
    watched.add(new Watched(nanoTime.getAsLong() + answerNanos, answer));
    if (!armed.get() && armed.compareAndSet(false, true)) {
      timer.schedule(this::check, tickNanos);
    }
  }

  /** How many answers are watched and not yet dropped (tests). */
  int watching() {
    return watched.size();
  }

  private void check() {
    long now = nanoTime.getAsLong();
    for (Watched head = watched.peek(); head != null; head = watched.peek()) {
      if (!head.answer().isDone() && now - head.deadlineNanos() < 0) {
        timer.schedule(this::check, Math.min(tickNanos, head.deadlineNanos() - now));
        return; // still armed
      }
      watched.poll();
      if (!head.answer().isDone()) {
        head.answer().completeExceptionally(late.get());
      }
    }
    armed.set(false);
    // A watch() between the last peek and the set saw the timer armed and did not arm it.
    if (!watched.isEmpty() && armed.compareAndSet(false, true)) {
      timer.schedule(this::check, tickNanos);
    }
  }

  private record Watched(long deadlineNanos, CompletableFuture<?> answer) {}
}
