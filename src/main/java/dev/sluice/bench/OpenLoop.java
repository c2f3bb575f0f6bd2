package dev.sluice.bench;

import io.grpc.Channel;
import io.grpc.netty.shaded.io.netty.channel.EventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The open loop: requests are due on a fixed schedule ({@link OpenLoopSchedule}: the rate ramps up
 * over the warmup, then holds) and each latency runs from its due time, so when the server (or this
 * client) falls behind, the waiting shows in the percentiles instead of silently lowering the send
 * rate (no coordinated omission). The schedule is split over {@link Lane}s, one {@link Pacer} each.
 *
 * <p>Threads: {@link #start} hands each pacer to its channel's event loop and returns; from then on
 * a pacer's sends, timers and bookkeeping all run on that one event loop, where its answers arrive
 * too ({@code directExecutor}), so sending needs no hand-off and wakes no other thread. A call that
 * fails continues where it failed; the pacer hops back to its loop itself. {@link #awaitSent} waits
 * on the thread that runs the generator until every pacer has sent all it had due in the window.
 */
final class OpenLoop implements LoadDriver {
  /**
   * The shortest sleep of an open-loop pacer. Waking per request cost a timer, a write and a flush
   * each, so at half the do-nothing server's closed-loop rate the pinned generator fell behind by
   * 0.7 s (p50) while the server idled; with a 250 us tick what is due goes out in one flush and
   * the same row's p50 is 0.6 ms (a 1 ms tick: 0.9 ms). The tick is in every latency, since latency
   * runs from the due time: at most 250 us, about half that on average.
   */
  private static final long PACER_TICK_NANOS = TimeUnit.MICROSECONDS.toNanos(250);

  /** Runs a failed open-loop call's continuation where it failed; the pacer hops itself. */
  private static final Executor WHERE_IT_FAILED = Runnable::run;

  private final LoadRun load;
  private final ClientChannels clients;
  private final OpenLoopSchedule schedule;
  private final List<Lane> lanes;

  /** Counted down by each pacer once it has sent every request due in the window. */
  private final CountDownLatch pacing;

  OpenLoop(BenchConfig config, ClientChannels clients, LoadRun load) {
    this.load = load;
    this.clients = clients;
    this.schedule =
        new OpenLoopSchedule(load.startNanos(), config.ratePerSecond(), config.warmup().toNanos());
    this.lanes = Lane.split(clients.channels().size(), config.concurrency());
    this.pacing = new CountDownLatch(lanes.size());
  }

  /**
   * One pacer's share of the schedule: requests {@code first}, {@code first + stride}, ... and at
   * most {@code budget} of them in flight at once.
   */
  record Lane(int first, int stride, int budget) {
    /**
     * One lane per channel, but at most {@code concurrency}: request i goes to lane i mod n, and
     * each lane gets its share of {@code concurrency} (the shares differ by at most one and add up
     * to it), so no lane waits for another's answers.
     */
    static List<Lane> split(int channels, int concurrency) {
      int count = Math.min(channels, concurrency);
      List<Lane> lanes = new ArrayList<>(count);
      for (int lane = 0; lane < count; lane++) {
        int budget = concurrency / count + (lane < concurrency % count ? 1 : 0);
        lanes.add(new Lane(lane, count, budget));
      }
      return lanes;
    }
  }

  /** One pacer per lane, on its channel's event loop. */
  @Override
  public void start() {
    for (Lane lane : lanes) {
      EventLoop loop = clients.eventLoop(lane.first());
      Pacer pacer = new Pacer(lane, clients.channels().get(lane.first()), loop);
      loop.execute(pacer::tick);
    }
  }

  /** Requests due in the window but still waiting for a slot are sent before the drain. */
  @Override
  public void awaitSent(long timeoutNanos) throws InterruptedException {
    pacing.await(timeoutNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void close() {}

  /**
   * Sends one lane's share of the schedule from its channel's event loop: whatever is due goes out
   * at once, then a timer wakes the pacer for the next due time. With {@code budget} requests of
   * the lane out, the pacer waits for the lane's next answer instead of a timer: retrying every few
   * microseconds burned the generator's core exactly when the server fell behind. Latency runs from
   * the due time, so a pacer that is late (a busy core, a full budget) shows in the percentiles.
   * Every field is confined to {@code loop}.
   */
  private final class Pacer {
    private final Channel channel;
    private final EventLoop loop;
    private final int stride;
    private final int budget;
    private final Runnable answered = this::answered;
    private final Runnable afterAnswer = this::afterAnswer;
    private long next;
    private int pending;
    private boolean sending;
    private boolean blocked;
    private boolean timerSet;
    private boolean finished;

    Pacer(Lane lane, Channel channel, EventLoop loop) {
      this.channel = channel;
      this.loop = loop;
      this.stride = lane.stride();
      this.budget = lane.budget();
      this.next = lane.first();
    }

    void tick() {
      timerSet = false;
      sendDue();
    }

    private void sendDue() {
      sending = true;
      try {
        long now = System.nanoTime();
        long due = schedule.dueNanos(next);
        for (; due - now <= 0; due = schedule.dueNanos(next)) {
          if (due - load.end() >= 0) {
            finish();
            return;
          }
          if (pending == budget) {
            blocked = true; // the next answer resumes this pacer
            return;
          }
          if (!load.tryAcquireSlot()) {
            throw new IllegalStateException("the lanes' budgets add up to more than concurrency");
          }
          pending++;
          next += stride;
          load.send(channel, due, answered, WHERE_IT_FAILED);
        }
        if (due - load.end() >= 0) {
          finish();
        } else if (!timerSet) {
          timerSet = true;
          loop.schedule(this::tick, Math.max(due - now, PACER_TICK_NANOS), TimeUnit.NANOSECONDS);
        }
      } finally {
        sending = false;
      }
    }

    private void finish() {
      if (!finished) {
        finished = true;
        pacing.countDown();
      }
    }

    /**
     * A call of this lane ended, on any thread: inline from {@link #sendDue} when it failed at
     * once, or from another thread; those go through the loop's queue, never back into {@code
     * sendDue}.
     */
    private void answered() {
      if (loop.inEventLoop() && !sending) {
        afterAnswer();
        return;
      }
      try {
        loop.execute(afterAnswer);
      } catch (RejectedExecutionException closed) {
        load.releaseSlot(); // the run is over and its event loop closed
      }
    }

    private void afterAnswer() {
      pending--;
      load.releaseSlot();
      if (blocked && !finished) {
        blocked = false;
        sendDue();
      }
    }
  }
}
