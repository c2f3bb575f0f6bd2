package dev.sluice.bench;

import dev.sluice.threads.DaemonThreadFactory;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.netty.shaded.io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Recorder;

/**
 * Sends ShouldRateLimit requests to a server for a warmup plus a measured window and summarises
 * what came back.
 *
 * <p>Closed loop (rate 0): {@code concurrency} chains, each sending its next request when the
 * previous one is answered; latency runs from the actual send. Open loop: requests are due on a
 * fixed schedule ({@link OpenLoopSchedule}: the rate ramps up over the warmup, then holds) and each
 * latency runs from its due time, so when the server (or this client) falls behind, the waiting
 * shows in the percentiles instead of silently lowering the send rate.
 *
 * <p>A request belongs to the phase its send (or due) time falls in; after the window no new
 * requests are sent and every measured one is waited for (up to its deadline and 5 s more), so
 * {@code ok + over_limit + errors = sent} holds exactly. Latency percentiles cover answered
 * requests (OK and OVER_LIMIT); errors are counted by gRPC status code. Responses run on the
 * channel's transport threads ({@code directExecutor}): the generator itself adds no thread hops.
 * The open loop's requests are sent from their channel's event loop too ({@link Pacer}).
 */
public final class LoadGenerator {
  private static final Duration DRAIN_GRACE = Duration.ofSeconds(5);

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

  private final BenchConfig config;
  private final ClientChannels clients;
  private final RequestSource requests;
  private final Semaphore inFlight;
  private final Recorder latencies =
      new Recorder(LatencySummary.HIGHEST_NANOS, LatencySummary.SIGNIFICANT_DIGITS);
  private final LongAdder sent = new LongAdder();
  private final LongAdder ok = new LongAdder();
  private final LongAdder overLimit = new LongAdder();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final Map<String, String> firstErrors = new ConcurrentHashMap<>();

  /** Failed calls continue here, so a call that fails inline cannot recurse without bound. */
  private final ExecutorService afterError;

  private final long timeoutNanos;
  private final long start;
  private final long measureStart;
  private final long end;

  /** Counted down by each open-loop pacer once it has sent every request due in the window. */
  private CountDownLatch pacing = new CountDownLatch(0);

  private long cpuAtMeasureStart = -1;
  private long cpuAtEnd = -1;

  private LoadGenerator(BenchConfig config, ClientChannels clients, long start) {
    this.config = config;
    this.clients = clients;
    this.start = start;
    this.measureStart = start + config.warmup().toNanos();
    this.end = measureStart + config.duration().toNanos();
    this.requests = new RequestSource(config.requests(), config.keys());
    this.timeoutNanos = config.timeout().toNanos();
    this.inFlight = new Semaphore(config.concurrency());
    this.afterError =
        Executors.newSingleThreadExecutor(new DaemonThreadFactory("bench-after-error"));
  }

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
    LoadGenerator generator = new LoadGenerator(config, clients, System.nanoTime());
    try {
      return generator.measure(phases);
    } finally {
      generator.afterError.shutdownNow();
      clients.close();
    }
  }

  private BenchResult measure(Phases phases) throws InterruptedException {
    if (config.openLoop()) {
      startPacers(new OpenLoopSchedule(start, config.ratePerSecond(), config.warmup().toNanos()));
    } else {
      startChains();
    }
    sleepUntil(measureStart);
    measuring(phases);
    sleepUntil(end);
    cpuAtEnd = ProcessCpu.nanos();
    phases.windowClosed();
    // Requests due in the window but still waiting for a slot are sent before the drain takes the
    // slots; the wait is bounded like the drain (a pacer waits at most for answers or deadlines).
    pacing.await(config.timeout().plus(DRAIN_GRACE).toNanos(), TimeUnit.NANOSECONDS);
    boolean drained =
        inFlight.tryAcquire(
            config.concurrency(),
            config.timeout().plus(DRAIN_GRACE).toNanos() + Math.max(0, end - System.nanoTime()),
            TimeUnit.NANOSECONDS);
    return result(drained);
  }

  private void startChains() throws InterruptedException {
    for (int i = 0; i < config.concurrency(); i++) {
      inFlight.acquire();
      new Chain(clients.channels().get(i % clients.channels().size())).run();
    }
  }

  /**
   * One pacer per lane, on its channel's event loop: request i goes to lane i mod n. Lanes are at
   * most {@code concurrency}, and each gets its share of it, so no lane waits for another's
   * answers.
   */
  private void startPacers(OpenLoopSchedule schedule) {
    int lanes = Math.min(clients.channels().size(), config.concurrency());
    pacing = new CountDownLatch(lanes);
    for (int lane = 0; lane < lanes; lane++) {
      int budget = config.concurrency() / lanes + (lane < config.concurrency() % lanes ? 1 : 0);
      EventLoop loop = clients.eventLoop(lane);
      Pacer pacer = new Pacer(schedule, clients.channels().get(lane), loop, lane, lanes, budget);
      loop.execute(pacer::tick);
    }
  }

  private void measuring(Phases phases) {
    cpuAtMeasureStart = ProcessCpu.nanos();
    phases.measuring();
  }

  private static void sleepUntil(long nanoTime) {
    for (long wait = nanoTime - System.nanoTime(); wait > 0; wait = nanoTime - System.nanoTime()) {
      LockSupport.parkNanos(wait);
    }
  }

  /**
   * Starts one call with {@link ClientCall} itself: the stub's adapters, a stub per deadline and
   * per-send protobuf encoding were a third of the generator's work per request.
   *
   * @param startNanos when the request's latency starts: now (closed loop) or its due time
   */
  private void send(Channel channel, long startNanos, Call call) {
    if (call.measured) {
      sent.increment();
    }
    ClientCall<byte[], Integer> clientCall = null;
    boolean started = false;
    try {
      clientCall =
          channel.newCall(
              RlsWire.SHOULD_RATE_LIMIT,
              CallOptions.DEFAULT.withDeadlineAfter(timeoutNanos, TimeUnit.NANOSECONDS));
      clientCall.start(call, new Metadata());
      started = true;
      clientCall.request(1);
      clientCall.sendMessage(requests.next());
      clientCall.halfClose();
    } catch (RuntimeException e) {
      if (started) {
        clientCall.cancel("the load generator could not send", e); // closes the call
      } else {
        call.onClose(Status.fromThrowable(e), new Metadata());
      }
    }
  }

  private BenchResult result(boolean drained) {
    long okCount = ok.sum();
    long overCount = overLimit.sum();
    Map<String, Long> errorCounts = new HashMap<>();
    errors.forEach((code, count) -> errorCounts.put(code, count.sum()));
    long sentCount = sent.sum();
    long answered = okCount + overCount + errorCounts.values().stream().mapToLong(n -> n).sum();
    if (!drained && sentCount > answered) {
      errorCounts.merge("UNFINISHED", sentCount - answered, Long::sum);
    }
    BenchResult.Setup setup =
        new BenchResult.Setup(
            "sluice-bench",
            config.target().toString(),
            config.openLoop() ? "open" : "closed",
            config.concurrency(),
            config.ratePerSecond(),
            config.requests().descriptorsPerRequest(),
            config.keys().toString());
    return new BenchResult(
        setup,
        new BenchResult.Counts(sentCount, okCount, overCount, errorCounts),
        config.duration(),
        LatencySummary.from(latencies.getIntervalHistogram()),
        firstErrors,
        ProcessCpu.between(cpuAtMeasureStart, cpuAtEnd));
  }

  private void countError(String code, String message) {
    errors.computeIfAbsent(code, c -> new LongAdder()).increment();
    firstErrors.putIfAbsent(code, message);
  }

  /** One closed-loop chain: send, and on the answer send again until the window closes. */
  private final class Chain implements Runnable {
    private final Channel channel;

    Chain(Channel channel) {
      this.channel = channel;
    }

    @Override
    public void run() {
      long now = System.nanoTime();
      if (now - end >= 0) {
        inFlight.release();
        return;
      }
      send(channel, now, new Call(now, now - measureStart >= 0, this, afterError));
    }
  }

  /**
   * Sends one lane's share of the schedule (requests {@code lane}, {@code lane + n}, ...) from its
   * channel's event loop: whatever is due goes out at once, then a timer wakes the pacer for the
   * next due time. With {@code budget} requests of the lane out, the pacer waits for the lane's
   * next answer instead of a timer: retrying every few microseconds burned the generator's core
   * exactly when the server fell behind. Latency runs from the due time, so a pacer that is late (a
   * busy core, a full budget) shows in the percentiles. Every field is confined to {@code loop}.
   */
  private final class Pacer {
    private final OpenLoopSchedule schedule;
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

    Pacer(
        OpenLoopSchedule schedule,
        Channel channel,
        EventLoop loop,
        int lane,
        int stride,
        int budget) {
      this.schedule = schedule;
      this.channel = channel;
      this.loop = loop;
      this.stride = stride;
      this.budget = budget;
      this.next = lane;
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
          if (due - end >= 0) {
            finish();
            return;
          }
          if (pending == budget) {
            blocked = true; // the next answer resumes this pacer
            return;
          }
          if (!inFlight.tryAcquire()) {
            throw new IllegalStateException("the lanes' budgets add up to more than concurrency");
          }
          pending++;
          next += stride;
          send(channel, due, new Call(due, due - measureStart >= 0, answered, WHERE_IT_FAILED));
        }
        if (due - end >= 0) {
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
        inFlight.release(); // the run is over and its event loop closed
      }
    }

    private void afterAnswer() {
      pending--;
      inFlight.release();
      if (blocked && !finished) {
        blocked = false;
        sendDue();
      }
    }
  }

  /**
   * One request in flight; its outcome is counted only when it was sent in the window. Runs {@code
   * then} once when the call ends: on the answering thread when answered, through {@code
   * afterError} when it failed (a call that fails inline must not recurse into the next send).
   */
  private final class Call extends ClientCall.Listener<Integer> {
    private final long startNanos;
    private final boolean measured;
    private final Runnable then;
    private final Executor afterError;
    private Integer code;

    Call(long startNanos, boolean measured, Runnable then, Executor afterError) {
      this.startNanos = startNanos;
      this.measured = measured;
      this.then = then;
      this.afterError = afterError;
    }

    @Override
    public void onMessage(Integer message) {
      code = message;
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      if (status.isOk() && code != null) {
        if (measured) {
          count(RlsWire.code(code));
        }
        then.run();
        return;
      }
      if (measured) {
        if (status.isOk()) {
          countError("INTERNAL", "the server closed the call OK without an answer");
        } else {
          countError(status.getCode().name(), String.valueOf(status.getDescription()));
        }
      }
      try {
        afterError.execute(then);
      } catch (RejectedExecutionException rejected) {
        // The run is over and its executor closed: nothing follows any more.
        inFlight.release();
      }
    }

    private void count(RateLimitResponse.Code answer) {
      if (answer == RateLimitResponse.Code.OK) {
        latencies.recordValue(LatencySummary.capped(System.nanoTime() - startNanos));
        ok.increment();
      } else if (answer == RateLimitResponse.Code.OVER_LIMIT) {
        latencies.recordValue(LatencySummary.capped(System.nanoTime() - startNanos));
        overLimit.increment();
      } else {
        countError("OVERALL_CODE_" + answer, "the server answered overall_code " + answer);
      }
    }
  }
}
