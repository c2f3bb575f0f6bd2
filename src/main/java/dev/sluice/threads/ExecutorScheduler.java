package dev.sluice.threads;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link Scheduler}: a few daemon threads named {@code sluice-scheduler-N}. Several
 * threads rather than one because one task may block for a while (the breaker probe's PING waits up
 * to a few Redis timeouts) and must not hold up the health updates or the rule reload.
 */
public final class ExecutorScheduler implements Scheduler, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ExecutorScheduler.class);

  private final ScheduledThreadPoolExecutor executor;

  /**
   * @param threads how many tasks may run at once, at least 1
   */
  public ExecutorScheduler(int threads) {
    this.executor =
        new ScheduledThreadPoolExecutor(threads, new DaemonThreadFactory("sluice-scheduler"));
    executor.setRemoveOnCancelPolicy(true);
  }

  @Override
  public Cancellable scheduleWithFixedDelay(Runnable task, Duration initialDelay, Duration delay) {
    var future =
        executor.scheduleWithFixedDelay(
            logged(task), initialDelay.toNanos(), delay.toNanos(), TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }

  @Override
  public void execute(Runnable task) {
    executor.execute(logged(task));
  }

  private static Runnable logged(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        log.error("scheduled task {} failed; it runs again at its next time", task, e);
      }
    };
  }

  /** Stops every task; a run in progress is interrupted. */
  @Override
  public void close() {
    executor.shutdownNow();
  }
}
