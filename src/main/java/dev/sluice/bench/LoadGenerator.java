package dev.sluice.bench;

import dev.sluice.threads.DaemonThreadFactory;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc.RateLimitServiceStub;
import io.grpc.Status;
import io.grpc.netty.shaded.io.netty.channel.EventLoop;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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

  /** How soon an open-loop pacer tries again when every request of {@code concurrency} is out. */
  /**
   * The shortest sleep of an open-loop pacer. Waking per request cost a timer, a write and a flush
   * each, so at half the do-nothing server's closed-loop rate the pinned generator fell behind by
   * 0.7 s (p50) while the server idled; with a 250 us tick what is due goes out in one flush and
   * the same row's p50 is 0.6 ms (a 1 ms tick: 0.9 ms). The tick is in every latency, since latency
   * runs from the due time: at most 250 us, about half that on average.
   */
  private static final long PACER_TICK_NANOS = TimeUnit.MICROSECONDS.toNanos(250);

  private static final long BLOCKED_RETRY_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

  private final BenchConfig config;
  private final ClientChannels clients;
  private final RequestSource requests;
  private final List<RateLimitServiceStub> stubs;
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
    this.stubs = clients.channels().stream().map(RateLimitServiceGrpc::newStub).toList();
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
      RateLimitServiceStub stub = stubs.get(i % stubs.size());
      sendNextInChain(stub);
    }
  }

  /** One closed-loop chain: send, and on the answer send again until the window closes. */
  private void sendNextInChain(RateLimitServiceStub stub) {
    long now = System.nanoTime();
    if (now - end >= 0) {
      inFlight.release();
      return;
    }
    send(stub, now, () -> sendNextInChain(stub));
  }

  /** One pacer per channel, on that channel's event loop: request i goes to channel i mod n. */
  private void startPacers(OpenLoopSchedule schedule) {
    pacing = new CountDownLatch(stubs.size());
    for (int lane = 0; lane < stubs.size(); lane++) {
      EventLoop loop = clients.eventLoop(lane);
      loop.execute(new Pacer(schedule, stubs.get(lane), loop, lane));
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
   * @param startNanos when the request's latency starts: now (closed loop) or its due time
   * @param then what follows the answer or the failure
   */
  private void send(RateLimitServiceStub stub, long startNanos, Runnable then) {
    boolean measured = startNanos - measureStart >= 0;
    if (measured) {
      sent.increment();
    }
    Call call = new Call(startNanos, measured, then);
    try {
      stub.withDeadlineAfter(config.timeout().toNanos(), TimeUnit.NANOSECONDS)
          .shouldRateLimit(requests.next(), call);
    } catch (RuntimeException e) {
      call.onError(e);
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

  /**
   * Sends one channel's share of the schedule (requests {@code lane}, {@code lane + n}, ...) from
   * that channel's event loop: whatever is due is sent at once, then the pacer schedules itself for
   * the next due time. Latency runs from the due time, so a pacer that falls behind (a busy core,
   * no free slot of {@code concurrency}) shows in the percentiles. Runs only on {@code loop}.
   */
  private final class Pacer implements Runnable {
    private final OpenLoopSchedule schedule;
    private final RateLimitServiceStub stub;
    private final EventLoop loop;
    private final int stride;
    private long next;

    Pacer(OpenLoopSchedule schedule, RateLimitServiceStub stub, EventLoop loop, int lane) {
      this.schedule = schedule;
      this.stub = stub;
      this.loop = loop;
      this.stride = stubs.size();
      this.next = lane;
    }

    @Override
    public void run() {
      long now = System.nanoTime();
      long due = schedule.dueNanos(next);
      for (; due - now <= 0; due = schedule.dueNanos(next)) {
        if (due - end >= 0) {
          pacing.countDown();
          return;
        }
        if (!inFlight.tryAcquire()) {
          loop.schedule(this, BLOCKED_RETRY_NANOS, TimeUnit.NANOSECONDS);
          return;
        }
        send(stub, due, inFlight::release);
        next += stride;
      }
      if (due - end < 0) {
        loop.schedule(this, Math.max(due - now, PACER_TICK_NANOS), TimeUnit.NANOSECONDS);
      } else {
        pacing.countDown();
      }
    }
  }

  /** One request in flight; its outcome is counted only when it was sent in the window. */
  private final class Call implements StreamObserver<RateLimitResponse> {
    private final long startNanos;
    private final boolean measured;
    private final Runnable then;
    private RateLimitResponse.Code code;

    Call(long startNanos, boolean measured, Runnable then) {
      this.startNanos = startNanos;
      this.measured = measured;
      this.then = then;
    }

    @Override
    public void onNext(RateLimitResponse response) {
      code = response.getOverallCode();
    }

    @Override
    public void onCompleted() {
      if (measured) {
        count();
      }
      then.run();
    }

    private void count() {
      if (code == RateLimitResponse.Code.OK) {
        latencies.recordValue(LatencySummary.capped(System.nanoTime() - startNanos));
        ok.increment();
      } else if (code == RateLimitResponse.Code.OVER_LIMIT) {
        latencies.recordValue(LatencySummary.capped(System.nanoTime() - startNanos));
        overLimit.increment();
      } else {
        countError("OVERALL_CODE_" + code, "the server answered overall_code " + code);
      }
    }

    @Override
    public void onError(Throwable error) {
      if (measured) {
        Status status = Status.fromThrowable(error);
        countError(status.getCode().name(), String.valueOf(status.getDescription()));
      }
      try {
        afterError.execute(then);
      } catch (RuntimeException rejected) {
        // The run is over and its executor closed: nothing follows any more.
        inFlight.release();
      }
    }
  }
}
