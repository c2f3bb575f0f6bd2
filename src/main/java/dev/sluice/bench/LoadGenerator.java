package dev.sluice.bench;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends ShouldRateLimit requests to a server for a warmup plus a measured window and summarises
 * what came back.
 *
 * <p>Closed loop (rate 0, {@link ClosedLoop}): {@code concurrency} chains, each sending its next
 * request when the previous one is answered; latency runs from the actual send. Open loop ({@link
 * OpenLoop}): requests are due on a fixed schedule ({@link OpenLoopSchedule}: the rate ramps up
 * over the warmup, then holds) and each latency runs from its due time, so when the server (or this
 * client) falls behind, the waiting shows in the percentiles instead of silently lowering the send
 * rate.
 *
 * <p>A request belongs to the phase its send (or due) time falls in; after the window no new
 * requests are sent and every measured one is waited for (up to its deadline and 5 s more), so
 * {@code ok + over_limit + errors = sent} holds exactly ({@link Outcomes}). Latency percentiles
 * cover answered requests (OK and OVER_LIMIT); errors are counted by gRPC status code.
 *
 * <p>Threads: the thread that calls {@link #run} keeps the time (warmup, window, drain), announces
 * the {@link Phases} and builds the result; it sends nothing after the driver's start. Responses
 * run on the channels' transport threads ({@code directExecutor}, {@link ClientChannels}): the
 * generator itself adds no thread hops. The open loop's requests are sent from their channel's
 * event loop too.
 */
public final class LoadGenerator {
  private static final Duration DRAIN_GRACE = Duration.ofSeconds(5);

  private LoadGenerator() {}

  /**
   * Told when the measured window opens and closes, so an outside observer (a script reading server
   * counters) can take its snapshots exactly around the window. Called on the thread that called
   * {@link #run}; must return quickly.
   */
  public interface Phases {
    Phases NONE =
        new Phases() {
          @Override
          public void measuring() {}

          @Override
          public void windowClosed() {}
        };

    /** The warmup is over: requests sent from now on are measured. */
    void measuring();

    /** No more requests will be sent; the ones in flight are still to be answered. */
    void windowClosed();
  }

  /** {@link #run(BenchConfig, Phases)} without phase announcements. */
  public static BenchResult run(BenchConfig config) throws InterruptedException {
    return run(config, Phases.NONE);
  }

  /**
   * Runs the warmup and the measurement, then closes its channels.
   *
   * @throws InterruptedException when interrupted; the channels are closed all the same
   */
  public static BenchResult run(BenchConfig config, Phases phases) throws InterruptedException {
    ClientChannels clients = new ClientChannels(config.target(), config.channels());
    LoadRun load = new LoadRun(config, System.nanoTime());
    LoadDriver driver =
        config.openLoop()
            ? new OpenLoop(config, clients, load)
            : new ClosedLoop(config, clients, load);
    try {
      return measure(config, load, driver, phases);
    } finally {
      driver.close();
      clients.close();
    }
  }

  private static BenchResult measure(
      BenchConfig config, LoadRun load, LoadDriver driver, Phases phases)
      throws InterruptedException {
    driver.start();
    sleepUntil(load.measureStart());
    long cpuAtMeasureStart = ProcessCpu.nanos();
    phases.measuring();
    sleepUntil(load.end());
    long cpuAtEnd = ProcessCpu.nanos();
    phases.windowClosed();
    // Requests due in the window but still waiting for a slot are sent before the drain takes the
    // slots; the wait is bounded like the drain (a pacer waits at most for answers or deadlines).
    driver.awaitSent(config.timeout().plus(DRAIN_GRACE).toNanos());
    boolean drained =
        load.awaitAllSlots(
            config.timeout().plus(DRAIN_GRACE).toNanos()
                + Math.max(0, load.end() - System.nanoTime()));
    return load.outcomes()
        .toResult(
            setup(config),
            config.duration(),
            drained,
            ProcessCpu.between(cpuAtMeasureStart, cpuAtEnd));
  }

  private static BenchResult.Setup setup(BenchConfig config) {
    return new BenchResult.Setup(
        "sluice-bench",
        config.target().toString(),
        config.openLoop() ? "open" : "closed",
        config.concurrency(),
        config.ratePerSecond(),
        config.requests().descriptorsPerRequest(),
        config.keys().toString());
  }

  private static void sleepUntil(long nanoTime) {
    for (long wait = nanoTime - System.nanoTime(); wait > 0; wait = nanoTime - System.nanoTime()) {
      LockSupport.parkNanos(wait);
    }
  }
}
