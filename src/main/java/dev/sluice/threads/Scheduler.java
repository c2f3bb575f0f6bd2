package dev.sluice.threads;

import java.time.Clock;
import java.time.Duration;

/**
 * Runs short background tasks later or repeatedly. The composition root creates one ({@link
 * ExecutorScheduler}) and passes it in; tests pass {@code FakeClock}, on which tasks run when the
 * fake time passes their due time. Tasks must not block for long: they share a few threads.
 * Implementations are thread-safe.
 */
public interface Scheduler {
  /**
   * Runs {@code task} after {@code initialDelay}, then again {@code delay} after each run ends,
   * until cancelled. A run that throws is logged and the task runs again at its next time (unlike
   * {@link java.util.concurrent.ScheduledExecutorService}, which would silently stop it).
   */
  Cancellable scheduleWithFixedDelay(Runnable task, Duration initialDelay, Duration delay);

  /** Runs {@code task} once, as soon as a scheduler thread is free; a throw is logged. */
  void execute(Runnable task);

  /**
   * The time this scheduler's delays are measured on, for components that pair timers with time
   * windows (the circuit breaker's failure-rate window); {@code FakeClock} returns itself.
   */
  default Clock clock() {
    return Clock.systemUTC();
  }

  /** A scheduled task; {@link #cancel} stops later runs (a run in progress finishes). */
  @FunctionalInterface
  interface Cancellable {
    void cancel();
  }
}
