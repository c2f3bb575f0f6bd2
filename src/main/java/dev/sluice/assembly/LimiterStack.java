package dev.sluice.assembly;

import dev.sluice.config.ConsistencyConfig;
import dev.sluice.config.FailureMode;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.StoreConfig;
import dev.sluice.config.StoreKind;
import dev.sluice.consistency.ConsistencyRouter;
import dev.sluice.consistency.SplitCounters;
import dev.sluice.consistency.SyncedCounters;
import dev.sluice.limiter.DecisionListener;
import dev.sluice.limiter.OverLimitCache;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.CounterStore;
import dev.sluice.store.CounterSync;
import dev.sluice.store.GuardedStore;
import dev.sluice.store.NamedStore;
import dev.sluice.store.Patience;
import dev.sluice.store.UnitSplitStore;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.store.redis.LaneHooks;
import dev.sluice.store.redis.RedisCounterStore;
import dev.sluice.threads.DaemonThreadFactory;
import dev.sluice.threads.Scheduler;
import dev.sluice.tracing.Tracing;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stores and the limiter of one process, opened in dependency order and closed in reverse: the
 * backend (memory, or Redis with its lanes), its breaker ({@link GuardedStore}), the per-second
 * Redis when configured, the synced and split counters, the {@code failure_mode: local} fallback,
 * and the {@link RateLimiter} over them.
 *
 * <p>Threads: none of its own. The memory sweeps, the breaker probes and the consistency syncs run
 * on the given {@link Scheduler}; each Redis store starts one writer thread per connection ({@code
 * sluice-redis-lane-N}), which completes the store's futures. The limiter's return leg runs on the
 * thread that completed the store's future ({@link #COMPLETIONS}).
 */
public final class LimiterStack implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LimiterStack.class);

  /**
   * The one choice of the thread a request's return leg runs on once the store answered: the thread
   * that completed the store's future, i.e. a Redis lane's writer. Measured faster than a hand-off
   * to a pool (BENCHMARKS.md, "Completing thread"); the return leg is short and must stay so.
   */
  private static final Executor COMPLETIONS = Runnable::run;

  /** What is counted where and how the limiter behaves. */
  public record Settings(StoreConfig store, LimiterConfig limiter, ConsistencyConfig consistency) {
    public Settings {
      Objects.requireNonNull(store, "store");
      Objects.requireNonNull(limiter, "limiter");
      Objects.requireNonNull(consistency, "consistency");
    }
  }

  /**
   * The process-wide collaborators the stack is given, never owns and never closes.
   *
   * @param callers the patience of the request on the calling thread: a Redis lane never writes a
   *     request whose caller stopped waiting ({@link Patience.Source#NONE} outside a gRPC server)
   */
  public record Context(
      Clock clock,
      Scheduler scheduler,
      SluiceMetrics metrics,
      Tracing tracing,
      Patience.Source callers) {
    public Context {
      Objects.requireNonNull(clock, "clock");
      Objects.requireNonNull(scheduler, "scheduler");
      Objects.requireNonNull(metrics, "metrics");
      Objects.requireNonNull(tracing, "tracing");
      Objects.requireNonNull(callers, "callers");
    }

    /** Every caller waits without end: an embedded limiter, a tool. */
    public Context(Clock clock, Scheduler scheduler, SluiceMetrics metrics, Tracing tracing) {
      this(clock, scheduler, metrics, tracing, Patience.Source.NONE);
    }

    private LaneHooks laneHooks() {
      return new LaneHooks(tracing.batches(), callers);
    }
  }

  private final Settings settings;
  private final Supplier<RuleSet> rules;
  private final Context context;
  private final List<AutoCloseable> opened = new ArrayList<>();
  private GuardedStore store;
  private Optional<GuardedStore> perSecond = Optional.empty();
  private SyncedCounters synced;
  private CounterStore routed;
  private RateLimiter.StoreChoice choice;
  private boolean storeUpAtStartup;

  private LimiterStack(Settings settings, Supplier<RuleSet> rules, Context context) {
    this.settings = settings;
    this.rules = rules;
    this.context = context;
  }

  /**
   * Opens every store and starts its timers. An unreachable Redis does not fail this: the breaker
   * and the failure mode answer until it is reachable ({@link #storeUpAtStartup} tells).
   *
   * @param rules the current rule snapshot (the split heartbeat asks whether any rule is split)
   * @throws RuntimeException from a store that cannot even be created; whatever had opened is
   *     closed
   */
  public static LimiterStack open(Settings settings, Supplier<RuleSet> rules, Context context) {
    LimiterStack stack = new LimiterStack(settings, rules, context);
    try {
      stack.openAll();
      return stack;
    } catch (RuntimeException e) {
      stack.close();
      throw e;
    }
  }

  private void openAll() {
    CounterStore backend = openBackend();
    store =
        new GuardedStore(
            backend, settings.store().breaker(), context.metrics(), context.scheduler());
    opened.add(store);
    storeUpAtStartup = store.checkAtStartup();
    store.start();
    perSecond = openPerSecond();
    routed = consistencyRouter(backend);
    choice = storeChoice();
  }

  /** The store, started: the memory sweep on the scheduler, or the Redis lanes' own threads. */
  private CounterStore openBackend() {
    if (settings.store().kind() == StoreKind.MEMORY) {
      return boundedMemoryStore();
    }
    return new RedisCounterStore(
            settings.store().redis(),
            context.clock(),
            new DaemonThreadFactory("sluice-redis-lane"),
            context.laneHooks())
        .start();
  }

  /**
   * The reference's per-second Redis, guarded by a breaker of its own ({@code redis_per_second} in
   * metrics and health), so its outage fails only requests with second limits.
   */
  private Optional<GuardedStore> openPerSecond() {
    if (settings.store().perSecondRedis().isEmpty()) {
      return Optional.empty();
    }
    CounterStore backend =
        new NamedStore(
            new RedisCounterStore(
                    settings.store().perSecondRedis().get(),
                    context.clock(),
                    new DaemonThreadFactory("sluice-redis-per-second-lane"),
                    context.laneHooks())
                .start(),
            "redis_per_second");
    GuardedStore guarded =
        new GuardedStore(
            backend, settings.store().breaker(), context.metrics(), context.scheduler());
    opened.add(guarded);
    if (!guarded.checkAtStartup()) {
      log.warn("per-second Redis unreachable at startup ({})", guarded.lastError());
    }
    return Optional.of(guarded.start());
  }

  /**
   * Exact hits to the guarded (and traced) store; synced and split ones counted here, each mode
   * opened after the store and so closed before it: the synced counters' last flush still reaches
   * Redis on shutdown.
   */
  private CounterStore consistencyRouter(CounterStore backend) {
    CounterSync shared = (CounterSync) backend;
    ConsistencyConfig consistency = settings.consistency();
    // A sync or heartbeat waits as long as a PING may: a connect and a batch, each a timeout.
    Duration wait = settings.store().redis().timeout().multipliedBy(3).plusSeconds(1);
    synced =
        new SyncedCounters(
                context.clock(),
                shared,
                context.scheduler(),
                new SyncedCounters.Settings(
                    consistency.syncInterval(), consistency.syncMaxCounters(), wait),
                context.metrics().consistency())
            .start();
    opened.add(synced);
    InMemoryCounterStore shares = boundedMemoryStore();
    opened.add(shares);
    // A memory store is this process alone: only --instances can say how many share a limit.
    Optional<CounterSync> fleet =
        settings.store().kind() == StoreKind.REDIS ? Optional.of(shared) : Optional.empty();
    SplitCounters split =
        new SplitCounters(
                shares,
                fleet,
                settings.limiter().instances(),
                context.scheduler(),
                wait,
                context.metrics().consistency(),
                this::servesSplitLimits)
            .start();
    opened.add(split);
    // Synced and split counters stay on the main store; exact hits of second limits go to the
    // per-second Redis when there is one.
    CounterStore exact =
        perSecond.<CounterStore>map(second -> new UnitSplitStore(store, second)).orElse(store);
    return new ConsistencyRouter(context.tracing().store(exact), synced, split);
  }

  private RateLimiter.StoreChoice storeChoice() {
    OverLimitCache overLimit =
        OverLimitCache.of(settings.limiter().localCacheSize(), context.clock(), context.metrics());
    Optional<CounterStore> fallback = Optional.empty();
    if (settings.limiter().failureMode() == FailureMode.LOCAL) {
      InMemoryCounterStore local = boundedMemoryStore();
      opened.add(local);
      fallback = Optional.of(local);
    }
    return new RateLimiter.StoreChoice(routed, fallback, overLimit, COMPLETIONS);
  }

  /** Whether the rules served now hold a split limit: only then does the heartbeat write. */
  private boolean servesSplitLimits() {
    return rules.get().rules().stream()
        .anyMatch(
            rule -> rule.limit().map(l -> l.consistency() == Consistency.SPLIT).orElse(false));
  }

  private InMemoryCounterStore boundedMemoryStore() {
    return new InMemoryCounterStore(
            context.clock(),
            context.scheduler(),
            settings.store().memoryMaxCounters(),
            context.metrics().store()::memoryEvicted)
        .start();
  }

  /**
   * A limiter over these stores, reading {@code rules} once per request.
   *
   * @param listener told about every counted descriptor (the live page); {@link
   *     DecisionListener#NONE} for none
   */
  public RateLimiter limiter(DecisionListener listener) {
    return new RateLimiter(rules, choice, settings.limiter(), context.metrics(), listener);
  }

  /** The main store behind its breaker: its state and last error are what health reports. */
  public GuardedStore store() {
    return store;
  }

  /** The per-second Redis behind its own breaker, when configured. */
  public Optional<GuardedStore> perSecond() {
    return perSecond;
  }

  /** The synced counters, whose failing sync health reports as degraded. */
  public SyncedCounters synced() {
    return synced;
  }

  /**
   * What the operator's inspect and explain read: the primary store, or a synced or split rule's
   * local view.
   */
  public CounterStore routed() {
    return routed;
  }

  /** Whether the main store answered its first PING. */
  public boolean storeUpAtStartup() {
    return storeUpAtStartup;
  }

  /** Closes what was opened, in reverse; a failing part is logged and the rest still closed. */
  @Override
  public synchronized void close() {
    for (int i = opened.size() - 1; i >= 0; i--) {
      try {
        opened.get(i).close();
      } catch (Exception e) {
        log.warn("closing {} failed: {}", opened.get(i).getClass().getSimpleName(), e.toString());
      }
    }
    opened.clear();
  }
}
