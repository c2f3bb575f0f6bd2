package dev.sluice.jmh;

import dev.sluice.assembly.LimiterStack;
import dev.sluice.config.ConsistencyConfig;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.StoreConfig;
import dev.sluice.limiter.Answer;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.DecisionListener;
import dev.sluice.limiter.DescriptorRequest;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Entry;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.threads.ExecutorScheduler;
import dev.sluice.tracing.Tracing;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One in-process decision, {@code RateLimiter.answer(call)} as the service takes it (before the
 * synchronous store path, {@code decide(call).join()}, which builds a completed future the service
 * no longer needs), on the memory store with the system clock: what Sluice costs without gRPC and
 * without Redis. The call is built inside the benchmark, as the service builds it from every
 * request. {@code hot}: every call counts the same key(s); {@code random}: a fresh random key per
 * call, so each call creates counters (the store then holds about one second of them, since the
 * limit is per second). {@code buildCall} measures the call's construction alone, to subtract from
 * {@code decide}. {@code decideServed} decides the same calls through the memory stack as {@code
 * serve} builds it ({@link LimiterStack}: the consistency router and the breaker in front of the
 * store), so an answer made on the calling thread that a served wrapper turns into a future shows
 * there.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LimiterBenchmark {
  @Param({"hot", "random"})
  public String keys;

  @Param({"1", "4"})
  public int descriptors;

  @Param({"fixed_window", "token_bucket"})
  public String algorithm;

  private RateLimiter limiter;
  private RateLimiter served;
  private LimiterStack servedStack;
  private InMemoryCounterStore store;
  private ExecutorScheduler scheduler;
  private String[] hotValues;

  @Setup
  public void setUp() {
    // High enough that a hot key is never over: the benchmark measures counting, not refusing.
    RuleSet rules =
        BenchmarkRules.single(
            "{unit: second, requests_per_unit: 4000000000, algorithm: " + algorithm + "}");
    scheduler = new ExecutorScheduler(1);
    // Started as in production: random keys must be swept or the map grows without bound.
    store = new InMemoryCounterStore(Clock.systemUTC(), scheduler).start();
    // The production wiring minus the network: real metrics on a private registry.
    limiter =
        new RateLimiter(
            () -> rules,
            RateLimiter.StoreChoice.of(store),
            LimiterConfig.defaults(),
            new SluiceMetrics(new PrometheusRegistry()));
    servedStack =
        LimiterStack.open(
            new LimiterStack.Settings(
                StoreConfig.memory(), LimiterConfig.defaults(), ConsistencyConfig.defaults()),
            () -> rules,
            new LimiterStack.Context(
                Clock.systemUTC(),
                scheduler,
                new SluiceMetrics(new PrometheusRegistry()),
                Tracing.off()));
    served = servedStack.limiter(DecisionListener.NONE);
    hotValues = new String[descriptors];
    for (int i = 0; i < descriptors; i++) {
      hotValues[i] = descriptors == 1 ? "hot" : "hot." + i;
    }
  }

  @TearDown
  public void tearDown() {
    servedStack.close();
    store.close();
    scheduler.close();
  }

  /** As the service decides: the answer, which on the memory store is the decision itself. */
  @Benchmark
  public Decision decide() {
    Answer answer = limiter.answer(call());
    return answer instanceof Decision decision ? decision : answer.future().join();
  }

  /** {@link #decide} through the memory stack {@code serve} builds. */
  @Benchmark
  public Decision decideServed() {
    Answer answer = served.answer(call());
    return answer instanceof Decision decision ? decision : answer.future().join();
  }

  /**
   * Only the call {@link #decide} builds, not decided: its bytes per op are the benchmark's own
   * share of {@code decide}'s, so {@code decide - buildCall} is what the decision allocates.
   */
  @Benchmark
  public RateLimitCall buildCall() {
    return call();
  }

  private RateLimitCall call() {
    boolean hot = keys.equals("hot");
    String key = hot ? null : Long.toHexString(ThreadLocalRandom.current().nextLong());
    List<DescriptorRequest> requests = new ArrayList<>(descriptors);
    for (int i = 0; i < descriptors; i++) {
      String value = hot ? hotValues[i] : descriptors == 1 ? key : key + "." + i;
      requests.add(DescriptorRequest.of(new Entry("user", value)));
    }
    return new RateLimitCall("bench", requests, 0);
  }
}
