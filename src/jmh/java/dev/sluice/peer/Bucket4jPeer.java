package dev.sluice.peer;

import dev.sluice.bench.BenchResult;
import dev.sluice.bench.LatencySummary;
import dev.sluice.bench.ProcessCpu;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.jedis.Bucket4jJedis;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.HdrHistogram.Recorder;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/**
 * Bucket4j's Redis token bucket (Jedis, compare-and-swap) driven in-process by {@code threads}
 * threads, each taking one token per call in a closed loop. Prints the same summary and JSON line
 * as {@code sluice bench}, so {@code bench/compare.sh} puts both in one table.
 *
 * <p>{@code java -cp target/benchmarks.jar dev.sluice.peer.Bucket4jPeer --redis
 * redis://127.0.0.1:6390 --threads 64 --keys random --json}
 */
@Command(
    name = "bucket4j-peer",
    mixinStandardHelpOptions = true,
    description = "Measure Bucket4j's Redis (Jedis CAS) bucket in-process.")
public final class Bucket4jPeer implements Callable<Integer> {
  @Option(names = "--redis", required = true, description = "redis://host:port")
  URI redis;

  @Option(names = "--threads", defaultValue = "64", description = "Caller threads.")
  int threads;

  @Option(names = "--duration-s", defaultValue = "10", description = "Measured seconds.")
  double durationSeconds;

  @Option(names = "--warmup-s", defaultValue = "2", description = "Unmeasured seconds first.")
  double warmupSeconds;

  @Option(names = "--keys", defaultValue = "random", description = "random or hot.")
  String keys;

  @Option(names = "--capacity", defaultValue = "100000", description = "Bucket capacity.")
  long capacity;

  @Option(
      names = "--refill-per-second",
      defaultValue = "100000",
      description = "Tokens added per second.")
  long refillPerSecond;

  @Option(names = "--json", description = "Print one JSON line to stdout, the summary to stderr.")
  boolean json;

  private final Recorder latencies =
      new Recorder(LatencySummary.HIGHEST_NANOS, LatencySummary.SIGNIFICANT_DIGITS);
  private final LongAdder sent = new LongAdder();
  private final LongAdder ok = new LongAdder();
  private final LongAdder refused = new LongAdder();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final Map<String, String> firstErrors = new ConcurrentHashMap<>();

  public static void main(String[] args) {
    System.exit(new CommandLine(new Bucket4jPeer()).execute(args));
  }

  @Override
  public Integer call() throws InterruptedException {
    if (!keys.equals("random") && !keys.equals("hot")) {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "--keys must be random or hot: " + keys);
    }
    GenericObjectPoolConfig<Jedis> poolConfig = new GenericObjectPoolConfig<>();
    poolConfig.setMaxTotal(threads);
    poolConfig.setMaxIdle(threads);
    try (JedisPool pool = new JedisPool(poolConfig, redis.getHost(), redis.getPort())) {
      ProxyManager<byte[]> buckets =
          Bucket4jJedis.casBasedBuilder(pool)
              .expirationAfterWrite(
                  ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                      Duration.ofSeconds(10)))
              .build();
      BenchResult result = measure(buckets);
      if (json) {
        System.err.print(result.toText());
        System.out.println(result.toJson());
      } else {
        System.out.print(result.toText());
      }
    }
    return 0;
  }

  private BenchResult measure(ProxyManager<byte[]> buckets) throws InterruptedException {
    BucketConfiguration configuration =
        BucketConfiguration.builder()
            .addLimit(
                limit ->
                    limit.capacity(capacity).refillGreedy(refillPerSecond, Duration.ofSeconds(1)))
            .build();
    Supplier<BucketConfiguration> configurationSupplier = () -> configuration;
    long start = System.nanoTime();
    long measureStart = start + (long) (warmupSeconds * 1e9);
    long end = measureStart + (long) (durationSeconds * 1e9);
    List<Thread> callers = new ArrayList<>(threads);
    for (int i = 0; i < threads; i++) {
      Thread caller =
          new Thread(
              () -> callUntil(buckets, configurationSupplier, measureStart, end),
              "bucket4j-caller-" + i);
      caller.start();
      callers.add(caller);
    }
    // The same progress lines as `sluice bench`, so compare.sh snapshots around the window.
    sleepUntil(measureStart);
    long cpuAtStart = ProcessCpu.nanos();
    System.err.println("bench: measuring for " + (end - measureStart) / 1_000_000 + " ms");
    sleepUntil(end);
    long cpu = ProcessCpu.between(cpuAtStart, ProcessCpu.nanos());
    System.err.println("bench: window closed, waiting for the answers in flight");
    for (Thread caller : callers) {
      caller.join();
    }
    return result(Duration.ofNanos(end - measureStart), cpu);
  }

  private static void sleepUntil(long nanoTime) {
    for (long wait = nanoTime - System.nanoTime(); wait > 0; wait = nanoTime - System.nanoTime()) {
      LockSupport.parkNanos(wait);
    }
  }

  private void callUntil(
      ProxyManager<byte[]> buckets,
      Supplier<BucketConfiguration> configuration,
      long measureStart,
      long end) {
    byte[] hotKey = "bucket4j-hot".getBytes(StandardCharsets.UTF_8);
    for (long now = System.nanoTime(); now - end < 0; now = System.nanoTime()) {
      boolean measured = now - measureStart >= 0;
      byte[] key = keys.equals("hot") ? hotKey : randomKey();
      try {
        boolean consumed = buckets.getProxy(key, configuration).tryConsume(1);
        if (measured) {
          latencies.recordValue(LatencySummary.capped(System.nanoTime() - now));
          (consumed ? ok : refused).increment();
        }
      } catch (RuntimeException e) {
        if (measured) {
          String name = e.getClass().getSimpleName();
          errors.computeIfAbsent(name, k -> new LongAdder()).increment();
          firstErrors.putIfAbsent(name, String.valueOf(e.getMessage()));
        }
      }
      if (measured) {
        sent.increment();
      }
    }
  }

  private static byte[] randomKey() {
    return ("bucket4j-" + Long.toHexString(ThreadLocalRandom.current().nextLong()))
        .getBytes(StandardCharsets.UTF_8);
  }

  private BenchResult result(Duration measured, long cpuNanos) {
    Map<String, Long> errorCounts = new HashMap<>();
    errors.forEach((name, count) -> errorCounts.put(name, count.sum()));
    BenchResult.Setup setup =
        new BenchResult.Setup("bucket4j-jedis", redis.toString(), "closed", threads, 0, 1, keys);
    return new BenchResult(
        setup,
        new BenchResult.Counts(sent.sum(), ok.sum(), refused.sum(), errorCounts),
        measured,
        LatencySummary.from(latencies.getIntervalHistogram()),
        firstErrors,
        cpuNanos);
  }
}
