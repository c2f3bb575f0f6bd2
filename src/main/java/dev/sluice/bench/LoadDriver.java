package dev.sluice.bench;

/**
 * How a run's requests are sent: {@link ClosedLoop} (a fixed number in flight, each answer sends
 * the next) or {@link OpenLoop} (requests due on a schedule, whatever comes back). Both send
 * through {@link LoadRun} and stop sending at its end; the {@link LoadGenerator} keeps the time.
 *
 * <p>Threads: {@link #start}, {@link #awaitSent} and {@link #close} are called by the thread that
 * runs the generator, in that order; where each driver sends from is in its own Javadoc.
 */
sealed interface LoadDriver extends AutoCloseable permits ClosedLoop, OpenLoop {
  /** Sends the first requests (or schedules them) and returns; sending goes on without it. */
  void start() throws InterruptedException;

  /**
   * After the window closed: waits, up to {@code timeoutNanos}, until every request due in the
   * window has been sent, so that the drain that follows waits for all of them.
   */
  void awaitSent(long timeoutNanos) throws InterruptedException;

  /** Releases what the driver holds; the run's channels are closed after it. */
  @Override
  void close();
}
