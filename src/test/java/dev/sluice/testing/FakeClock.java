package dev.sluice.testing;

import dev.sluice.threads.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that moves only when told to, and a {@link Scheduler} on that time (as grpc-java's
 * FakeClock): scheduled tasks run on the thread that calls {@link #advance}, each at its due time,
 * in due-time order (ties in scheduling order). {@link #execute} tasks run at the next {@link
 * #advance} or {@link #runDueTasks}. So a test drives the memory sweep, the breaker probe or the
 * reload poll exactly, with no sleeps. A task that throws makes {@link #advance} throw (a repeating
 * one stays scheduled), so a broken task fails the test instead of being logged. Thread-safe; tasks
 * run outside the lock and may schedule or cancel tasks.
 */
public final class FakeClock extends Clock implements Scheduler {
  private final AtomicReference<Instant> now;
  private final PriorityQueue<Task> tasks =
      new PriorityQueue<>(Comparator.comparing(Task::due).thenComparingLong(Task::sequence));
  private long sequence;

  public FakeClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  /** A clock at a round, epoch-aligned instant, so window arithmetic in tests is easy to read. */
  public static FakeClock atEpochSecond(long epochSecond) {
    return new FakeClock(Instant.ofEpochSecond(epochSecond));
  }

  /**
   * Moves time forward by {@code duration}, stopping at each task's due time on the way to run it
   * (a repeating task runs once per period passed).
   */
  public void advance(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("time only moves forward: " + duration);
    }
    Instant target = now.get().plus(duration);
    for (Task task = nextDue(target); task != null; task = nextDue(target)) {
      task.run();
    }
    now.updateAndGet(instant -> instant.isAfter(target) ? instant : target);
  }

  /** Runs the tasks due now (including {@link #execute}d ones) without moving time. */
  public void runDueTasks() {
    advance(Duration.ZERO);
  }

  /** Sets the time without running tasks; for tests about the clock alone. */
  public void set(Instant instant) {
    now.set(instant);
  }

  /** Tasks waiting to run, repeating ones included; for asserting that a component scheduled. */
  public synchronized int pendingTasks() {
    return tasks.size();
  }

  @Override
  public Cancellable scheduleWithFixedDelay(Runnable task, Duration initialDelay, Duration delay) {
    if (delay.isNegative() || delay.isZero()) {
      throw new IllegalArgumentException("delay must be positive: " + delay);
    }
    return add(task, instant().plus(initialDelay), delay);
  }

  @Override
  public void execute(Runnable task) {
    add(task, instant(), null);
  }

  private synchronized Task add(Runnable runnable, Instant due, Duration period) {
    Task task = new Task(runnable, due, period, sequence++);
    tasks.add(task);
    return task;
  }

  /** Takes the first task due by {@code target} and moves time to its due time; null if none. */
  private synchronized Task nextDue(Instant target) {
    Task first = tasks.peek();
    if (first == null || first.due().isAfter(target)) {
      return null;
    }
    tasks.poll();
    now.updateAndGet(instant -> instant.isAfter(first.due()) ? instant : first.due());
    return first;
  }

  /** This clock: tasks and time windows run on the same fake time. */
  @Override
  public Clock clock() {
    return this;
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  /** One scheduled task; a repeating one is re-queued with a new due time after each run. */
  private final class Task implements Cancellable {
    private final Runnable runnable;
    private final Duration period;
    private Instant due; // guarded by FakeClock.this
    private long sequence; // guarded by FakeClock.this
    private volatile boolean cancelled;

    Task(Runnable runnable, Instant due, Duration period, long sequence) {
      this.runnable = runnable;
      this.due = due;
      this.period = period;
      this.sequence = sequence;
    }

    Instant due() {
      return due;
    }

    long sequence() {
      return sequence;
    }

    void run() {
      if (cancelled) {
        return;
      }
      try {
        runnable.run();
      } finally {
        if (period != null) {
          requeue();
        }
      }
    }

    /** Fixed delay: the next run is one period after this one ended, on the fake time. */
    private void requeue() {
      synchronized (FakeClock.this) {
        if (!cancelled) {
          due = instant().plus(period);
          sequence = FakeClock.this.sequence++;
          tasks.add(this);
        }
      }
    }

    @Override
    public void cancel() {
      synchronized (FakeClock.this) {
        cancelled = true;
        tasks.remove(this);
      }
    }
  }
}
