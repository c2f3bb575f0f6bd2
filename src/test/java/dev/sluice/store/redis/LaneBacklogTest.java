package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.Expiry;
import dev.sluice.store.Patience;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoreExpiredException;
import dev.sluice.store.StoreShedException;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LaneBacklogTest {
  private static final int MAX_HITS = 4;

  private final FakeClock clock = FakeClock.atEpochSecond(1_000);
  // The test thread is the writer: takeBatch is only called with something queued.
  private final LaneBacklog backlog = new LaneBacklog(Thread.currentThread(), MAX_HITS, "node:1");

  /** A caller with a deadline on the fake clock, who may also cancel. */
  private final class Caller implements Patience {
    final Instant deadline;
    final AtomicBoolean cancelled = new AtomicBoolean();

    Caller(Duration patience) {
      this.deadline = clock.instant().plus(patience);
    }

    @Override
    public State state() {
      if (cancelled.get()) {
        return State.CANCELLED;
      }
      return clock.instant().isBefore(deadline) ? State.WAITING : State.PAST_DEADLINE;
    }
  }

  /** A request of one hit and where its answer went. */
  private record Sent(PendingRequest<String> request, AtomicReference<Object> answer) {
    Object answered() {
      return answer.get();
    }
  }

  private Sent request(Patience caller) {
    AtomicReference<Object> answer = new AtomicReference<>();
    PendingRequest<String> request =
        new PendingRequest<>(
            1,
            pipeline -> () -> "written",
            (value, failure) -> {
              if (!answer.compareAndSet(null, failure == null ? value : failure)) {
                throw new AssertionError("answered twice");
              }
            },
            null,
            caller);
    return new Sent(request, answer);
  }

  private Sent offered(Patience caller) {
    Sent sent = request(caller);
    backlog.offer(sent.request());
    return sent;
  }

  private static Expiry stageOf(Object answer) {
    assertThat(answer).isInstanceOf(StoreExpiredException.class);
    return ((StoreExpiredException) answer).stage();
  }

  @Test
  void offer_deadlinePassed_answersExpiredAndQueuesNothing() {
    Caller late = new Caller(Duration.ofMillis(20));
    clock.advance(Duration.ofMillis(20));

    Sent sent = offered(late);

    assertThat(stageOf(sent.answered())).isEqualTo(Expiry.QUEUED);
    assertThat(backlog.load()).isZero();
  }

  @Test
  void takeBatch_deadlinePassedWhileQueued_leavesItOutAndFreesItsHits() throws Exception {
    Sent expiring = offered(new Caller(Duration.ofMillis(20)));
    Sent patient = offered(new Caller(Duration.ofMillis(50)));
    clock.advance(Duration.ofMillis(30));

    List<PendingRequest<?>> batch = backlog.takeBatch(PipelineLane.MAX_BATCH_HITS);

    assertThat(batch).containsExactly(patient.request());
    assertThat(stageOf(expiring.answered())).isEqualTo(Expiry.QUEUED);
    assertThat(backlog.load()).isEqualTo(1);
    backlog.written(batch);
    assertThat(backlog.load()).isZero();
  }

  @Test
  void takeBatch_callerCancelledWhileQueued_answersCancelled() throws Exception {
    Caller leaving = new Caller(Duration.ofMillis(20));
    Sent cancelled = offered(leaving);
    Sent waiting = offered(new Caller(Duration.ofMillis(20)));
    leaving.cancelled.set(true);

    assertThat(backlog.takeBatch(PipelineLane.MAX_BATCH_HITS)).containsExactly(waiting.request());
    assertThat(stageOf(cancelled.answered())).isEqualTo(Expiry.CANCELLED);
  }

  @Test
  void offer_laneFullOfExpiredWork_dropsItOldestFirstInsteadOfShedding() throws Exception {
    Sent[] old = new Sent[MAX_HITS];
    for (int i = 0; i < MAX_HITS; i++) {
      old[i] = offered(new Caller(Duration.ofMillis(20)));
    }
    clock.advance(Duration.ofMillis(20));

    Sent fresh = offered(new Caller(Duration.ofMillis(20)));

    assertThat(fresh.answered()).as("queued, not shed").isNull();
    for (Sent each : old) {
      assertThat(stageOf(each.answered())).isEqualTo(Expiry.QUEUED);
    }
    assertThat(backlog.load()).isEqualTo(1);
    assertThat(backlog.takeBatch(PipelineLane.MAX_BATCH_HITS)).containsExactly(fresh.request());
  }

  @Test
  void offer_laneFullOfLiveWork_shedsTheNewestAtOnce() throws Exception {
    Sent first = offered(new Caller(Duration.ofMillis(20)));
    for (int i = 1; i < MAX_HITS; i++) {
      offered(new Caller(Duration.ofMillis(20)));
    }

    Sent newest = offered(new Caller(Duration.ofMillis(20)));

    assertThat(newest.answered()).isInstanceOf(StoreShedException.class);
    assertThat(first.answered()).isNull();
    assertThat(backlog.takeBatch(PipelineLane.MAX_BATCH_HITS)).hasSize(MAX_HITS);
  }

  @Test
  void offer_expiredWorkBehindLiveHead_shedsRatherThanReorder() {
    offered(new Caller(Duration.ofMillis(50)));
    for (int i = 1; i < MAX_HITS; i++) {
      offered(new Caller(Duration.ofMillis(20)));
    }
    clock.advance(Duration.ofMillis(30));

    Sent newest = offered(new Caller(Duration.ofMillis(20)));

    // Only the head is looked at: the writer drops the rest when it reaches them.
    assertThat(newest.answered()).isInstanceOf(StoreShedException.class);
  }

  @Test
  void concurrentOffersDropsAndTakes_answerEachRequestOnce_andWriteNoExpiredOne() throws Exception {
    int producers = 4;
    int perProducer = 2_000;
    AtomicInteger answered = new AtomicInteger();
    AtomicInteger expiredWritten = new AtomicInteger();
    AtomicReference<LaneBacklog> lane = new AtomicReference<>();
    Thread writer =
        new Thread(
            () -> {
              try {
                while (true) {
                  List<PendingRequest<?>> batch = lane.get().takeBatch(PipelineLane.MAX_BATCH_HITS);
                  batch.forEach(request -> ((PendingRequest<String>) request).succeed("written"));
                  lane.get().written(batch);
                }
              } catch (InterruptedException e) {
                // the test is over
              }
            });
    lane.set(new LaneBacklog(writer, 64, "node:1"));
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      Thread producer =
          new Thread(() -> offerMany(lane.get(), start, perProducer, answered, expiredWritten));
      threads.add(producer);
      producer.start();
    }
    writer.start();
    start.countDown();
    for (Thread producer : threads) {
      producer.join();
    }
    Eventually.await(
        Duration.ofSeconds(30),
        "every request answered",
        () -> answered.get() == producers * perProducer);
    writer.interrupt();
    writer.join();

    assertThat(answered.get()).isEqualTo(producers * perProducer);
    assertThat(expiredWritten.get()).isZero();
    assertThat(lane.get().load()).isZero();
  }

  /**
   * Offers {@code count} requests once {@code start} opens; every other caller gives up right after
   * its request is offered (it waits when offered, and never after).
   */
  private static void offerMany(
      LaneBacklog lane,
      CountDownLatch start,
      int count,
      AtomicInteger answered,
      AtomicInteger expiredWritten) {
    try {
      start.await();
    } catch (InterruptedException e) {
      return;
    }
    for (int i = 0; i < count; i++) {
      boolean leaves = i % 2 == 1;
      AtomicInteger asked = new AtomicInteger();
      Patience caller =
          () ->
              leaves && asked.getAndIncrement() > 0
                  ? Patience.State.PAST_DEADLINE
                  : Patience.State.WAITING;
      PendingRequest.Answer<String> answer =
          (value, failure) -> {
            answered.incrementAndGet();
            if (leaves && "written".equals(value)) {
              expiredWritten.incrementAndGet();
            }
          };
      lane.offer(new PendingRequest<>(1, pipeline -> () -> "x", answer, null, caller));
    }
  }

  @Test
  void failAll_answersEachQueuedRequestOnceAndEmptiesTheLane() {
    Sent expired = offered(new Caller(Duration.ofMillis(20)));
    Sent live = offered(new Caller(Duration.ofMillis(50)));
    clock.advance(Duration.ofMillis(20));
    backlog.dropExpiredHead();

    backlog.failAll(new StoreException("closed"));

    assertThat(stageOf(expired.answered())).isEqualTo(Expiry.QUEUED);
    assertThat(live.answered()).isInstanceOf(StoreException.class);
    assertThat(backlog.load()).isZero();
  }
}
