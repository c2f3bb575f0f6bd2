package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.StoreException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link AnswerDeadlines} on a hand-driven timer and clock: no sleeps, no real time. */
class AnswerDeadlinesTest {
  private static final long ANSWER_NANOS = 800;

  private final AtomicLong now = new AtomicLong(1_000);
  private final Queue<Scheduled> timer = new ConcurrentLinkedQueue<>();
  private final AnswerDeadlines deadlines =
      new AnswerDeadlines(
          ANSWER_NANOS,
          () -> new StoreException("late"),
          (task, delay) -> timer.add(new Scheduled(task, now.get() + delay)),
          now::get);

  private record Scheduled(Runnable task, long atNanos) {}

  /** Moves the clock to each due task in turn and runs it, until none is due by {@code until}. */
  private void runTimerUntil(long until) {
    for (Scheduled next = timer.peek(); next != null && next.atNanos() <= until; ) {
      timer.poll();
      now.set(Math.max(now.get(), next.atNanos()));
      next.task().run();
      next = timer.peek();
    }
    now.set(Math.max(now.get(), until));
  }

  @Test
  void watch_unansweredPastTheAnswerTime_failsWithTheLateFailure() {
    CompletableFuture<String> answer = new CompletableFuture<>();
    deadlines.watch(answer);

    runTimerUntil(1_000 + ANSWER_NANOS - 1);
    assertThat(answer).isNotDone();
    runTimerUntil(1_000 + ANSWER_NANOS + ANSWER_NANOS / 8);

    assertThat(answer).isCompletedExceptionally();
    assertThat(answer.handle((value, failure) -> failure).join())
        .isInstanceOf(StoreException.class)
        .hasMessage("late");
    assertThat(timer).as("nothing watched: the timer is not armed").isEmpty();
  }

  @Test
  void watch_answeredInTime_keepsTheAnswerAndDropsItAtTheNextTick() {
    CompletableFuture<String> answer = new CompletableFuture<>();
    deadlines.watch(answer);
    answer.complete("ok");

    runTimerUntil(1_000 + ANSWER_NANOS / 8);

    assertThat(answer).isCompletedWithValue("ok");
    assertThat(deadlines.watching()).isZero();
    assertThat(timer).isEmpty();
  }

  @Test
  void watch_afterTheTimerDisarmed_armsItAgain() {
    CompletableFuture<String> first = new CompletableFuture<>();
    deadlines.watch(first);
    first.complete("ok");
    runTimerUntil(now.get() + ANSWER_NANOS);
    assertThat(timer).isEmpty();

    CompletableFuture<String> second = new CompletableFuture<>();
    deadlines.watch(second);
    runTimerUntil(now.get() + 2 * ANSWER_NANOS);

    assertThat(second).isCompletedExceptionally();
  }

  @Test
  void watch_anAnsweredHeadBeforeAPendingOne_failsOnlyThePendingOne() {
    CompletableFuture<String> answered = new CompletableFuture<>();
    CompletableFuture<String> pending = new CompletableFuture<>();
    deadlines.watch(answered);
    now.addAndGet(10);
    deadlines.watch(pending);
    answered.complete("ok");

    runTimerUntil(now.get() + 2 * ANSWER_NANOS);

    assertThat(answered).isCompletedWithValue("ok");
    assertThat(pending).isCompletedExceptionally();
    assertThat(deadlines.watching()).isZero();
  }

  /**
   * Threads watch while the timer runs its checks on another thread: every unanswered future is
   * failed in the end and no answered one is, so no watch is lost between a check that found the
   * queue empty and the timer disarming.
   */
  @Test
  void watch_manyThreadsWhileTheTimerChecks_failsExactlyTheUnanswered() throws Exception {
    int threads = 8;
    int perThread = 5_000;
    List<CompletableFuture<String>> unanswered = Collections.synchronizedList(new ArrayList<>());
    List<CompletableFuture<String>> answered = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(threads);
    for (int t = 0; t < threads; t++) {
      new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < perThread; i++) {
                  // Answered before it is watched: fake time runs far faster than this thread.
                  CompletableFuture<String> answer = new CompletableFuture<>();
                  if (i % 2 == 0) {
                    answer.complete("ok");
                    answered.add(answer);
                  } else {
                    unanswered.add(answer);
                  }
                  deadlines.watch(answer);
                }
                done.countDown();
              })
          .start();
    }
    start.countDown();
    while (done.getCount() > 0) {
      runTimerUntil(now.get() + ANSWER_NANOS / 4);
    }
    runTimerUntil(now.get() + 4 * ANSWER_NANOS);

    assertThat(unanswered)
        .hasSize(threads * perThread / 2)
        .allMatch(CompletableFuture::isCompletedExceptionally);
    assertThat(answered).allMatch(f -> f.join().equals("ok"));
    assertThat(deadlines.watching()).isZero();
    assertThat(timer).isEmpty();
  }
}
