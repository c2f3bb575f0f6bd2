package dev.sluice.embed;

import dev.sluice.assembly.LimiterStack;
import dev.sluice.config.ConsistencyConfig;
import dev.sluice.config.FailureMode;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.LimiterSettings;
import dev.sluice.config.RedisConfig;
import dev.sluice.config.SettingValues;
import dev.sluice.config.StoreConfig;
import dev.sluice.limiter.DecisionListener;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.load.RuleReloader;
import dev.sluice.store.StoreException;
import dev.sluice.threads.ExecutorScheduler;
import dev.sluice.tracing.Tracing;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sluice's rate limiter inside a JVM service: the same rules, the same limiter and the same stores
 * as {@code sluice serve}, without the network hop to a sidecar. On Redis it counts exactly the
 * keys a server with the same rules and {@code --redis-key-prefix} counts, so embedded limiters and
 * servers may share one limit.
 *
 * <pre>{@code
 * try (SluiceLimiter limiter =
 *     SluiceLimiter.builder()
 *         .rules(Path.of("/etc/sluice/rules"))       // a directory of rule files, as --rules
 *         .redis(URI.create("redis://redis:6379"))   // any --redis-url form; memory without it
 *         .reloadEvery(Duration.ofSeconds(1))        // optional: poll the rule files
 *         .build()) {
 *   Decision decision =
 *       limiter
 *           .shouldRateLimit("api", List.of(Descriptor.of("user", userId)), 1)
 *           .toCompletableFuture()
 *           .join();
 *   if (decision.overLimit()) {
 *     // answer 429
 *   }
 * }
 * }</pre>
 *
 * <p>Threads: thread-safe; share one instance per process. On Redis, concurrent calls are sent
 * together, many to one pipeline, by one writer thread per connection ({@code
 * sluice-redis-lane-N}), and the returned stage completes on that thread: whatever is chained on it
 * must be short and must not block (hand it to an executor of your own otherwise). On the memory
 * store the stage is complete when the call returns. Timers (breaker probe, memory sweep, rule
 * polls) run on two {@code sluice-scheduler-N} daemon threads.
 */
public final class SluiceLimiter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SluiceLimiter.class);

  /** Timers only: the breaker probe may block one for a few Redis timeouts. */
  private static final int SCHEDULER_THREADS = 2;

  private final ExecutorScheduler scheduler;
  private final RuleReloader reloader;
  private final LimiterStack stack;
  private final RateLimiter limiter;
  private volatile boolean closed;

  private SluiceLimiter(ExecutorScheduler scheduler, RuleReloader reloader, LimiterStack stack) {
    this.scheduler = scheduler;
    this.reloader = reloader;
    this.stack = stack;
    this.limiter = stack.limiter(DecisionListener.NONE);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Decides one request, as a server decides a {@code ShouldRateLimit} call: every descriptor
   * matched against {@code domain}'s rules, its counters charged {@code hits} each in one store
   * call. An unknown domain or a descriptor no rule matches is not limited.
   *
   * @param hits what each counted descriptor is charged; 0 checks without charging
   * @return completes with the decision, or fails with {@link LimiterUnavailableException} when the
   *     store cannot answer and the failure mode is {@link FailureMode#ERROR}; other failure modes
   *     answer instead. Never completes on the caller's thread's behalf later than the Redis
   *     timeout
   * @throws IllegalArgumentException for an empty domain, no descriptors or negative hits
   * @throws IllegalStateException after {@link #close}
   */
  public CompletionStage<Decision> shouldRateLimit(
      String domain, List<Descriptor> descriptors, int hits) {
    RateLimitCall call = CallMapping.toCall(domain, descriptors, hits);
    if (closed) {
      throw new IllegalStateException("this SluiceLimiter is closed");
    }
    return limiter
        .decide(call)
        .handle(
            (decision, failure) -> {
              if (failure != null) {
                throw new CompletionException(unavailable(failure));
              }
              return CallMapping.toDecision(decision);
            });
  }

  /** One descriptor, charged one hit. */
  public CompletionStage<Decision> shouldRateLimit(String domain, Descriptor descriptor) {
    return shouldRateLimit(domain, List.of(descriptor), 1);
  }

  private static Throwable unavailable(Throwable failure) {
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    return cause instanceof StoreException
        ? new LimiterUnavailableException(
            "rate limit store unavailable: " + cause.getMessage(), cause)
        : cause;
  }

  /**
   * Reads the rule directory now and serves its rules when they changed and are valid; invalid
   * rules are rejected and the previous ones kept. Rules given as text never change.
   *
   * @return true when new rules are served now
   * @throws IllegalArgumentException when the changed rules are invalid, naming every problem
   */
  public boolean reloadRules() {
    RuleReloader.Outcome outcome = reloader.reloadIfChanged();
    if (outcome == RuleReloader.Outcome.REJECTED) {
      throw new IllegalArgumentException(
          "invalid rules, still serving version "
              + reloader.current().version()
              + ": "
              + reloader.lastError().map(e -> e.problems().toString()).orElse(""));
    }
    return outcome == RuleReloader.Outcome.RELOADED;
  }

  /** The version (content hash) of the rules served now. */
  public String rulesVersion() {
    return reloader.current().version();
  }

  /**
   * Stops the rule polls, flushes the synced counters, closes the Redis connections and the timer
   * threads. Calls after this throw; stages not yet answered fail. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    reloader.close();
    stack.close();
    scheduler.close();
  }

  /** Builds a {@link SluiceLimiter}; only the rules are required. Not thread-safe. */
  public static final class Builder {
    private RuleSource rules;
    private Optional<RedisConfig> redis = Optional.empty();
    private Clock clock = Clock.systemUTC();
    private FailureMode failureMode = FailureMode.ERROR;
    private Optional<Duration> reloadEvery = Optional.empty();
    private long localCacheSize;

    private Builder() {}

    /** Rule files, as {@code sluice serve --rules}: a directory (one domain per file) or a file. */
    public Builder rules(Path path) {
      this.rules = new RuleSource.Directory(Objects.requireNonNull(path, "path"));
      return this;
    }

    /** One rule file's YAML text (tests, generated rules); never reloaded. */
    public Builder rules(String yaml) {
      this.rules = new RuleSource.Text(Objects.requireNonNull(yaml, "yaml"));
      return this;
    }

    /**
     * Counts on Redis, reached as {@code --redis-url} says: {@code redis://}, {@code rediss://},
     * {@code unix://}, {@code redis-cluster://}, {@code redis-sentinel://} and their TLS forms,
     * with Sluice's defaults (100 ms timeout, 2 connections, no key prefix). Without it, counts in
     * this process's memory.
     *
     * @throws IllegalArgumentException for a URL {@code sluice serve} would refuse, naming why
     */
    public Builder redis(URI url) {
      return redis(Objects.requireNonNull(url, "url").toString());
    }

    /** {@link #redis(URI)} from text, for URL forms {@link URI} cannot hold. */
    public Builder redis(String url) {
      this.redis = Optional.of(RedisConfig.of(url));
      return this;
    }

    /** Prepended to every Redis key, as {@code --redis-key-prefix}; must match the servers'. */
    public Builder redisKeyPrefix(String prefix) {
      this.redis = Optional.of(redisOrThrow().toBuilder().keyPrefix(prefix).build());
      return this;
    }

    /** As {@code --redis-timeout}. */
    public Builder redisTimeout(Duration timeout) {
      this.redis = Optional.of(redisOrThrow().toBuilder().timeout(timeout).build());
      return this;
    }

    /** As {@code --redis-connections}: lanes, each one connection and one writer thread. */
    public Builder redisConnections(int connections) {
      this.redis = Optional.of(redisOrThrow().toBuilder().connections(connections).build());
      return this;
    }

    private RedisConfig redisOrThrow() {
      return redis.orElseThrow(() -> new IllegalStateException("call redis(...) first"));
    }

    /** The clock fixed windows and memory token buckets read; the system UTC clock by default. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** What to answer when the store cannot: {@link FailureMode#ERROR} by default. */
    public Builder failureMode(FailureMode mode) {
      this.failureMode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * Polls the rule directory every {@code interval}; off by default (see {@link #reloadRules}).
     */
    public Builder reloadEvery(Duration interval) {
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("reload interval must be positive: " + interval);
      }
      this.reloadEvery = Optional.of(interval);
      return this;
    }

    /** As {@code --local-cache-size}: counters known to be over their limit; 0 (off) by default. */
    public Builder localCacheSize(long entries) {
      this.localCacheSize = entries;
      return this;
    }

    /**
     * Loads the rules and opens the store. An unreachable Redis does not fail this: the failure
     * mode answers until Redis does.
     *
     * @throws IllegalArgumentException when the rules are invalid, naming every problem
     * @throws IllegalStateException when no rules were given
     */
    public SluiceLimiter build() {
      if (rules == null) {
        throw new IllegalStateException("no rules: call rules(Path) or rules(String)");
      }
      LimiterStack.Settings settings = settings();
      ExecutorScheduler scheduler = new ExecutorScheduler(SCHEDULER_THREADS);
      try {
        RuleReloader reloader = rules.open(reloadEvery, clock, scheduler);
        SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
        LimiterStack stack =
            LimiterStack.open(
                settings,
                reloader::rules,
                new LimiterStack.Context(clock, scheduler, metrics, Tracing.off()));
        if (!stack.storeUpAtStartup()) {
          log.warn(
              "store {} unreachable at startup ({}); answering by failure mode '{}'",
              stack.store().kind(),
              stack.store().lastError(),
              failureMode.configName());
        }
        reloadEvery.ifPresent(interval -> reloader.start());
        return new SluiceLimiter(scheduler, reloader, stack);
      } catch (RuntimeException e) {
        scheduler.close();
        throw e;
      }
    }

    private LimiterStack.Settings settings() {
      StoreConfig store = redis.map(StoreConfig::redis).orElseGet(StoreConfig::memory);
      LimiterConfig limiter =
          LimiterConfig.from(
              SettingValues.builder()
                  .set(LimiterSettings.FAILURE_MODE, failureMode)
                  .set(LimiterSettings.LOCAL_CACHE_SIZE, localCacheSize)
                  .build());
      return new LimiterStack.Settings(store, limiter, ConsistencyConfig.defaults());
    }
  }
}
