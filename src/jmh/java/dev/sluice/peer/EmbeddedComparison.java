package dev.sluice.peer;

import dev.sluice.bench.LatencySummary;
import dev.sluice.bench.ProcessCpu;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Recorder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import redis.clients.jedis.Jedis;

/**
 * Sluice's embedded limiter (fixed window and token bucket) against Bucket4j's Jedis bucket and
 * Redisson's {@code RRateLimiter}, in one JVM on one Redis: every peer, scenario and thread count
 * is one row, all printed as one table at the end. Each row starts on an empty Redis ({@code
 * FLUSHALL}) with a fresh limiter, warms up, then measures closed-loop callers (each waits for its
 * answer before asking again). Redis's cost comes from {@code INFO} read at both ends of the
 * window.
 *
 * <p>{@code java -cp target/benchmarks.jar dev.sluice.peer.EmbeddedComparison --redis
 * redis://127.0.0.1:6390 --threads 8,32,64}; {@code bench/embedded.sh} starts the Redis and builds.
 */
@Command(
    name = "embedded-comparison",
    mixinStandardHelpOptions = true,
    description = "Compare Sluice's embedded limiter with Bucket4j and Redisson on one Redis.")
public final class EmbeddedComparison implements Callable<Integer> {
  /** Keys starting with this are the hot ones (Redisson sets their rate up once). */
  static final String HOT_PREFIX = "hot-";

  static final List<String> PEERS =
      List.of("sluice-fixed-window", "sluice-token-bucket", "bucket4j", "redisson");

  @Option(names = "--redis", required = true, description = "redis://host:port (a private one).")
  URI redis;

  @Option(
      names = "--threads",
      split = ",",
      defaultValue = "8,32,64",
      description = "Caller threads.")
  List<Integer> threads;

  @Option(names = "--duration-s", defaultValue = "10", description = "Measured seconds per row.")
  double durationSeconds;

  @Option(names = "--warmup-s", defaultValue = "3", description = "Unmeasured seconds per row.")
  double warmupSeconds;

  @Option(
      names = "--peers",
      split = ",",
      defaultValue = "sluice-fixed-window,sluice-token-bucket,bucket4j,redisson")
  List<String> peers;

  @Option(
      names = "--scenarios",
      split = ",",
      defaultValue = "RANDOM_ALLOWED,RANDOM_HALF,HOT_ALLOWED,HOT_HALF")
  List<Scenario> scenarios;

  public static void main(String[] args) {
    System.exit(new CommandLine(new EmbeddedComparison()).execute(args));
  }

  @Override
  public Integer call() throws InterruptedException {
    for (String peer : peers) {
      if (!PEERS.contains(peer)) {
        throw new CommandLine.ParameterException(
            new CommandLine(this), "unknown peer " + peer + "; expected " + PEERS);
      }
    }
    int maxThreads = threads.stream().mapToInt(Integer::intValue).max().orElse(1);
    List<Row> rows = new ArrayList<>();
    try (Jedis admin = new Jedis(redis)) {
      for (Scenario scenario : scenarios) {
        for (int count : threads) {
          for (String peer : peers) {
            admin.flushAll();
            try (ComparedLimiter limiter = open(peer, maxThreads)) {
              Row row = measure(limiter, scenario, count, admin);
              System.err.println("embedded: " + row.line(Double.NaN, Double.NaN));
              rows.add(row);
            }
          }
        }
      }
    }
    System.out.println(Row.header());
    System.out.println(Row.header().replaceAll("[^|]", "-"));
    for (Row row : rows) {
      System.out.println(
          row.line(ratio(rows, row, "bucket4j-jedis"), ratio(rows, row, "redisson")));
    }
    for (Row row : rows) {
      if (row.errors() > 0) {
        System.err.printf(
            "errors: %s, %s %s, %d threads: %d, first: %s%n",
            row.peer(),
            row.scenario().keys,
            row.scenario().outcome,
            row.threads(),
            row.errors(),
            row.firstError());
      }
    }
    return 0;
  }

  private ComparedLimiter open(String peer, int maxThreads) {
    return switch (peer) {
      case "sluice-fixed-window" -> new SluiceEmbeddedLimiter(redis, "fixed_window");
      case "sluice-token-bucket" -> new SluiceEmbeddedLimiter(redis, "token_bucket");
      case "bucket4j" -> new Bucket4jLimiter(redis, maxThreads);
      default -> new RedissonLimiter(redis, maxThreads);
    };
  }

  /** A Sluice row's throughput over {@code peer}'s in the same scenario and threads; NaN else. */
  private static double ratio(List<Row> rows, Row row, String peer) {
    if (!row.peer().startsWith("sluice")) {
      return Double.NaN;
    }
    return rows.stream()
        .filter(other -> other.peer().equals(peer))
        .filter(other -> other.scenario() == row.scenario() && other.threads() == row.threads())
        .mapToDouble(other -> row.perSecond() / Math.max(1e-9, other.perSecond()))
        .findFirst()
        .orElse(Double.NaN);
  }

  private Row measure(ComparedLimiter limiter, Scenario scenario, int count, Jedis admin)
      throws InterruptedException {
    Window window = new Window(limiter, scenario);
    long start = System.nanoTime();
    window.measureStart = start + (long) (warmupSeconds * 1e9);
    window.end = window.measureStart + (long) (durationSeconds * 1e9);
    List<Thread> callers = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Thread caller = new Thread(window::callUntilEnd, "caller-" + i);
      caller.start();
      callers.add(caller);
    }
    sleepUntil(window.measureStart);
    RedisInfo before = RedisInfo.of(admin);
    long cpuAtStart = ProcessCpu.nanos();
    sleepUntil(window.end);
    RedisInfo used = RedisInfo.of(admin).since(before);
    long cpu = ProcessCpu.between(cpuAtStart, ProcessCpu.nanos());
    for (Thread caller : callers) {
      caller.join();
    }
    return new Row(
        limiter.name(),
        scenario,
        count,
        Duration.ofNanos(window.end - window.measureStart),
        window.allowed.sum(),
        window.refused.sum(),
        window.errors.sum(),
        String.valueOf(window.firstError.get()),
        LatencySummary.from(window.latencies.getIntervalHistogram()),
        used,
        cpu);
  }

  private static void sleepUntil(long nanoTime) {
    for (long wait = nanoTime - System.nanoTime(); wait > 0; wait = nanoTime - System.nanoTime()) {
      LockSupport.parkNanos(wait);
    }
  }

  /** One row's callers and what they counted inside the measured window. */
  private static final class Window {
    final ComparedLimiter limiter;
    final Scenario scenario;
    final Recorder latencies =
        new Recorder(LatencySummary.HIGHEST_NANOS, LatencySummary.SIGNIFICANT_DIGITS);
    final LongAdder allowed = new LongAdder();
    final LongAdder refused = new LongAdder();
    final LongAdder errors = new LongAdder();
    final AtomicReference<String> firstError = new AtomicReference<>();
    volatile long measureStart;
    volatile long end;

    Window(ComparedLimiter limiter, Scenario scenario) {
      this.limiter = limiter;
      this.scenario = scenario;
    }

    void callUntilEnd() {
      Scenario.Calls calls = scenario.calls();
      for (long now = System.nanoTime(); now - end < 0; now = System.nanoTime()) {
        calls.next();
        boolean measured = now - measureStart >= 0;
        try {
          boolean ok = limiter.tryAcquire(calls.kind(), calls.key());
          if (measured) {
            latencies.recordValue(LatencySummary.capped(System.nanoTime() - now));
            (ok ? allowed : refused).increment();
          }
        } catch (RuntimeException e) {
          if (measured) {
            errors.increment();
            firstError.compareAndSet(null, e.toString());
          }
        }
      }
    }
  }
}
