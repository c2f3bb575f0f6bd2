package dev.sluice.replay;

import dev.sluice.threads.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The replay's time: set to each captured request's timestamp before it is decided, never moved
 * backwards (a capture's lines may be slightly out of order across writer batches). Also the
 * replay's {@link Scheduler}: a repeating task (the memory store's sweep of expired counters) runs
 * on this time, when a move passes its due time, so the store drops ended windows as the capture's
 * time goes by, however fast the replay runs. A move across a long gap runs a task once, not once
 * per period passed: one sweep removes everything expired by then. {@link #execute} runs the task
 * at once. Used by one replay thread, which also runs the tasks.
 */
final class SimulatedClock extends Clock implements Scheduler {
  private final List<Repeating> tasks = new ArrayList<>();
  private long millis;

  SimulatedClock(long startMillis) {
    this.millis = startMillis;
  }

  void moveTo(long epochMillis) {
    if (epochMillis <= millis) {
      return;
    }
    millis = epochMillis;
    for (Repeating task : List.copyOf(tasks)) {
      task.runIfDue();
    }
  }

  @Override
  public Cancellable scheduleWithFixedDelay(Runnable task, Duration initialDelay, Duration delay) {
    if (delay.isNegative() || delay.isZero()) {
      throw new IllegalArgumentException("delay must be positive: " + delay);
    }
    Repeating repeating = new Repeating(task, millis + initialDelay.toMillis(), delay.toMillis());
    tasks.add(repeating);
    return () -> tasks.remove(repeating);
  }

  @Override
  public void execute(Runnable task) {
    task.run();
  }

  /** This clock: the store's sweep and its expiry read the same simulated time. */
  @Override
  public Clock clock() {
    return this;
  }

  @Override
  public long millis() {
    return millis;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  /** Fixed delay: after a run, the next is one delay after the time it ran at. */
  private final class Repeating {
    private final Runnable task;
    private final long delayMillis;
    private long dueMillis;

    Repeating(Runnable task, long dueMillis, long delayMillis) {
      this.task = task;
      this.dueMillis = dueMillis;
      this.delayMillis = delayMillis;
    }

    void runIfDue() {
      if (millis >= dueMillis) {
        task.run();
        dueMillis = millis + delayMillis;
      }
    }
  }
}
