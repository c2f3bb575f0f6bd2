package dev.sluice;

import dev.sluice.admin.AdminHttpServer;
import dev.sluice.admin.HealthReport;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.StoreConfig;
import dev.sluice.config.StoreKind;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import dev.sluice.server.GrpcServer;
import dev.sluice.service.RateLimitGrpcService;
import dev.sluice.store.CounterStore;
import dev.sluice.store.StoreException;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.store.redis.RedisCounterStore;
import dev.sluice.store.redis.RedisSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: the only place long-lived objects are created. {@link #start} wires and
 * starts them in dependency order; {@link #close} stops them in reverse.
 */
public final class Sluice implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Sluice.class);

  private final List<AutoCloseable> started = new ArrayList<>();
  private final AtomicReference<RuleSet> rules = new AtomicReference<>(RuleSet.empty());
  private CounterStore store;
  private GrpcServer grpc;
  private AdminHttpServer admin;

  private Sluice() {}

  /**
   * Loads the rules, connects the store and opens both ports.
   *
   * @throws StartupException with a one-line reason when any step fails; whatever had started is
   *     closed again
   */
  public static Sluice start(ServeConfig config, Clock clock) {
    Sluice sluice = new Sluice();
    try {
      sluice.startAll(config, clock);
      return sluice;
    } catch (RuntimeException e) {
      sluice.close();
      throw e instanceof StartupException ? e : new StartupException(e.getMessage(), e);
    }
  }

  private void startAll(ServeConfig config, Clock clock) {
    LoadResult.Loaded loaded = loadRules(config);
    rules.set(loaded.rules());
    store = openStore(config.store(), clock);
    started.add(store);
    RateLimiter limiter = new RateLimiter(rules::get, store, config.defaultAlgorithm());
    int threads = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
    grpc = new GrpcServer(config.grpcPort(), threads, List.of(new RateLimitGrpcService(limiter)));
    started.add(grpc.start());
    admin = new AdminHttpServer(config.httpPort(), this::health);
    started.add(admin.start());
    grpc.setServing(true);
    log.info(
        "Sluice ready: grpc port {}, http port {}, store {}, {} domains, {} rules (version {})",
        grpc.port(),
        admin.port(),
        store.kind(),
        loaded.rules().domains().size(),
        loaded.rules().rules().size(),
        loaded.version());
  }

  private static LoadResult.Loaded loadRules(ServeConfig config) {
    LoadResult result = new RuleLoader(config.defaultAlgorithm()).load(config.rulesPath());
    if (result instanceof LoadResult.Failed failed) {
      String problems =
          failed.problems().stream().map(Object::toString).collect(Collectors.joining("; "));
      throw new StartupException("invalid rules: " + problems);
    }
    return (LoadResult.Loaded) result;
  }

  private static CounterStore openStore(StoreConfig config, Clock clock) {
    if (config.kind() == StoreKind.MEMORY) {
      return new InMemoryCounterStore(clock);
    }
    RedisSettings settings =
        new RedisSettings(
            config.redisUrl(), config.redisTimeout(), config.redisPoolSize(), config.keyPrefix());
    RedisCounterStore redis;
    try {
      redis = new RedisCounterStore(settings, clock);
      redis.ping();
    } catch (StoreException e) {
      throw new StartupException("cannot reach redis: " + e.getMessage(), e);
    }
    return redis;
  }

  private HealthReport health() {
    List<String> problems = new ArrayList<>();
    try {
      store.ping();
    } catch (StoreException e) {
      problems.add("store " + store.kind() + ": " + e.getMessage());
    }
    return new HealthReport(problems);
  }

  public int grpcPort() {
    return grpc.port();
  }

  public int httpPort() {
    return admin.port();
  }

  /** Stops the ports first, so no request reaches a closed store; idempotent. */
  @Override
  public void close() {
    if (grpc != null) {
      grpc.stop(Duration.ofSeconds(5));
    }
    for (int i = started.size() - 1; i >= 0; i--) {
      try {
        started.get(i).close();
      } catch (Exception e) {
        log.warn("closing {} failed: {}", started.get(i).getClass().getSimpleName(), e.toString());
      }
    }
    started.clear();
  }
}
