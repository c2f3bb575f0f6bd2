package dev.sluice;

import dev.sluice.admin.AdminAccess;
import dev.sluice.admin.AdminApi;
import dev.sluice.admin.AdminGrpcService;
import dev.sluice.admin.AdminHttpServer;
import dev.sluice.admin.CounterAdmin;
import dev.sluice.admin.CountersHandler;
import dev.sluice.admin.ExplainHandler;
import dev.sluice.admin.HealthHandler;
import dev.sluice.admin.HealthReport;
import dev.sluice.admin.JsonHandler;
import dev.sluice.admin.MetricsHandler;
import dev.sluice.admin.ReadGuard;
import dev.sluice.admin.RlconfigHandler;
import dev.sluice.admin.RulesHandler;
import dev.sluice.assembly.LimiterStack;
import dev.sluice.capture.CaptureWriter;
import dev.sluice.capture.RequestCapture;
import dev.sluice.config.AccessConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.XdsConfig;
import dev.sluice.explain.Explainer;
import dev.sluice.explain.RequestExplainer;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.live.LiveHandler;
import dev.sluice.live.LiveStats;
import dev.sluice.live.LiveStatus;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import dev.sluice.rules.load.RuleReloader;
import dev.sluice.rules.load.RuleWatch;
import dev.sluice.rules.xds.XdsChannels;
import dev.sluice.rules.xds.XdsRuleClient;
import dev.sluice.server.GrpcServer;
import dev.sluice.server.GrpcTls;
import dev.sluice.service.RateLimitGrpcService;
import dev.sluice.service.RequestMapping;
import dev.sluice.store.GuardedStore;
import dev.sluice.store.redis.RedisCounterStore;
import dev.sluice.threads.DaemonThreadFactory;
import dev.sluice.threads.ExecutorScheduler;
import dev.sluice.threads.Scheduler;
import dev.sluice.tracing.OtelTracing;
import dev.sluice.tracing.Tracing;
import io.grpc.InsecureServerCredentials;
import io.grpc.ServerCredentials;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: the only place long-lived objects are created. {@link #start} wires and
 * starts them in dependency order; {@link #close} drains and stops them in reverse.
 *
 * <p>Which thread runs what (every one a daemon from {@link DaemonThreadFactory}, created here or
 * by a component given its factory or the scheduler here; no constructor starts one):
 *
 * <ul>
 *   <li>{@code grpc-event-loop-N} ({@code --grpc-event-loops}, one {@code grpc-boss} accepts):
 *       reads and writes the gRPC connections and runs ShouldRateLimit up to the store call (the
 *       whole call for the memory store, which answers on the caller's thread); on a Redis Cluster
 *       (which may re-read its slot map on that thread) or with {@code --grpc-rls-handlers pool} it
 *       runs on {@code grpc-handler-N} instead;
 *   <li>{@code grpc-handler-N} ({@code --grpc-threads}): health, reflection and admin gRPC calls;
 *   <li>{@code sluice-redis-lane-N}, one per Redis connection: sends pipelines and completes their
 *       futures, so what a request does after the store call runs there ({@link
 *       RedisCounterStore});
 *   <li>{@code sluice-scheduler-N} (the one {@link Scheduler}): memory sweeps, the breaker probe,
 *       rule reload polls, gRPC health updates, the synced counters' sync (which waits there for
 *       its pipeline's answer) and the split heartbeat;
 *   <li>{@code sluice-rules-watch-0}: waits for file-system events and hands each to the scheduler;
 *   <li>{@code sluice-xds-0}: the xDS rule client's callbacks and reconnects;
 *   <li>{@code sluice-capture-0} ({@code --capture-file} only): writes sampled requests;
 *   <li>{@code admin-http-N}: the admin HTTP port.
 * </ul>
 */
public final class Sluice implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Sluice.class);

  /**
   * Timer threads: the breaker probe may block one for a few Redis timeouts, and must not hold up
   * the health updates, the rule poll or the sweeps.
   */
  private static final int SCHEDULER_THREADS = 4;

  private static final Duration HEALTH_INTERVAL = Duration.ofMillis(250);

  private final ServeConfig config;
  private final StartedParts started = new StartedParts(log);
  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
  private volatile boolean draining;
  private RuleReloader reloader;
  private Optional<XdsRuleClient> xds = Optional.empty();
  private Tracing tracing = Tracing.off();
  private LimiterStack stack;
  private GrpcServer grpc;
  private AdminHttpServer admin;
  private GrpcServer adminGrpc;

  private Sluice(ServeConfig config) {
    this.config = config;
  }

  /**
   * Loads the rules, opens the store and both ports. An unreachable Redis does not stop startup:
   * the failure policy answers until it is reachable, and health says so.
   *
   * @throws StartupException with a one-line reason when the rules are invalid or a port cannot be
   *     bound; whatever had started is closed again
   */
  public static Sluice start(ServeConfig config, Clock clock) {
    Sluice sluice = new Sluice(config);
    try {
      sluice.startAll(clock);
      return sluice;
    } catch (RuntimeException e) {
      sluice.close();
      throw e instanceof StartupException ? e : new StartupException(e.getMessage(), e);
    }
  }

  private void startAll(Clock clock) {
    // The whole tree, secrets masked: what this process runs with, in one line.
    log.info("starting with {}", config);
    ExecutorScheduler scheduler = new ExecutorScheduler(SCHEDULER_THREADS);
    started.add("scheduler", scheduler);
    RuleLoader loader =
        new RuleLoader(config.rules().defaultAlgorithm(), config.rules().allowEmptyRules())
            .mergingDomains(config.rules().mergeDomains())
            .withDefaultConsistency(config.consistency().defaultConsistency());
    ReloadMetrics reloadMetrics = new ReloadMetrics(metrics);
    LoadResult.Loaded loaded;
    if (config.ruleSource() instanceof XdsConfig) {
      // Served until the first push: no domain known, so every request is answered OK.
      loaded = new LoadResult.Loaded(RuleSet.empty(), "none", List.of());
      reloader = RuleReloader.forPushes(loader, loaded, clock, reloadMetrics);
    } else {
      loaded = initialRules(loader);
      reloader = new RuleReloader(config.rules(), loader, loaded, clock, scheduler, reloadMetrics);
    }
    started.add("rule reloader", reloader);
    metrics.rulesLoaded(loaded.rules().domains().size(), loaded.rules().rules().size());
    // Chosen once here; off is a null object, so nothing downstream asks whether it is on.
    tracing = config.tracing().enabled() ? OtelTracing.create(config.tracing()) : Tracing.off();
    // Before the store: a Redis store reports its pipelines to it.
    started.add("tracing", tracing);
    stack =
        LimiterStack.open(
            new LimiterStack.Settings(config.store(), config.limiter(), config.consistency()),
            reloader::rules,
            new LimiterStack.Context(clock, scheduler, metrics, tracing));
    started.add("limiter stack", stack);
    LiveStats live = new LiveStats(clock, randomSalt());
    RateLimiter limiter = stack.limiter(live);
    RequestCapture capture = startCapture(clock);
    RateLimitGrpcService service =
        new RateLimitGrpcService(
            limiter, config.requestLimits(), config.headers(), metrics, tracing, capture);
    AccessConfig access = config.server().access();
    grpc =
        new GrpcServer(
            new InetSocketAddress(access.grpcBind(), config.server().grpcPort()),
            grpcCredentials(access, scheduler),
            List.of(tracing.intercept(service.definition())),
            new GrpcServer.Settings(
                config.server().grpcThreads(),
                config.server().connectionAge(),
                config.server().transport().resolvedFor(config.store())));
    started.add("grpc server", grpc.start());
    AdminApi adminApi = adminApi(access);
    if (access.adminGrpcPort().isPresent()) {
      adminGrpc =
          new GrpcServer(
              new InetSocketAddress(access.httpBind(), access.adminGrpcPort().getAsInt()),
              InsecureServerCredentials.create(),
              2,
              List.of(new AdminGrpcService(adminApi).withCaller()),
              config.server().connectionAge());
      started.add("admin grpc server", adminGrpc.start());
      adminGrpc.setServing(true);
    }
    admin =
        new AdminHttpServer(new InetSocketAddress(access.httpBind(), config.server().httpPort()));
    admin.handle("/healthcheck", new ReadGuard(adminApi, new HealthHandler(this::health)));
    admin.handle("/metrics", new ReadGuard(adminApi, new MetricsHandler(metrics)));
    admin.handle("/rules", new RulesHandler(adminApi));
    admin.handle("/rlconfig", new ReadGuard(adminApi, new RlconfigHandler(reloader::rules)));
    admin.handle("/json", new ReadGuard(adminApi, new JsonHandler(service)));
    admin.handle("/counters", new CountersHandler(adminApi));
    admin.handle("/explain", new ExplainHandler(adminApi));
    // The page itself is the same static file for everyone and holds no data, so a browser can
    // load it without a header; what it shows comes from /ui/data, behind the read guard.
    LiveHandler livePage = new LiveHandler(live, this::liveStatus);
    admin.handle("/ui", livePage);
    admin.handle("/ui/data", new ReadGuard(adminApi, livePage));
    started.add("admin http server", admin.start());
    if (config.ruleSource() instanceof XdsConfig xdsConfig) {
      startXds(xdsConfig, loader);
    } else {
      reloader.start();
      RuleWatch watch =
          new RuleWatch(
              config.rules().path(),
              reloader::pollSoon,
              new DaemonThreadFactory("sluice-rules-watch"));
      started.add("rule watch", watch.start());
    }
    startHealthUpdates(scheduler);
    if (!stack.storeUpAtStartup()) {
      log.warn(
          "store {} unreachable at startup ({}); answering by failure mode '{}' until it answers",
          stack.store().kind(),
          stack.store().lastError(),
          config.limiter().failureMode().configName());
    }
    log.info(
        "Sluice ready: grpc port {}, http port {}, store {}, {} domains, {} rules (version {}),"
            + " failure mode {}; grpc on {}{}, http on {}, admin grpc port {}, admin writes {}",
        grpc.port(),
        admin.port(),
        stack.store().kind(),
        loaded.rules().domains().size(),
        loaded.rules().rules().size(),
        loaded.version(),
        config.limiter().failureMode().configName(),
        access.grpcBind(),
        access.grpcTls().isPresent() ? " with TLS" : "",
        access.httpBind(),
        adminGrpcPort().isPresent() ? String.valueOf(adminGrpcPort().getAsInt()) : "off",
        access.adminTokenFile().isPresent() ? "need the token" : "off");
  }

  /** Off, or the writer on its own thread; closed after the gRPC port, so it drains what came. */
  private RequestCapture startCapture(Clock clock) {
    if (!config.capture().enabled()) {
      return RequestCapture.OFF;
    }
    CaptureWriter writer =
        new CaptureWriter(
                config.capture(), clock, metrics, new DaemonThreadFactory("sluice-capture"))
            .start();
    started.add("capture writer", writer);
    return writer;
  }

  private AdminApi adminApi(AccessConfig access) {
    AdminAccess checks =
        AdminAccess.of(
            access.adminTokenFile().map(AdminAccess::readTokenFile),
            access.adminTokenForReads(),
            config.server().adminReadOnly());
    if (access.adminTokenFile().isEmpty()) {
      log.info("admin writes disabled: no --admin-token-file");
    }
    // Explain reads what inspect reads: the primary store, or a synced or split rule's local view.
    RequestExplainer explainer =
        new RequestExplainer(
            new Explainer(reloader::rules, stack.routed(), config.rules().defaultAlgorithm()),
            new RequestMapping(config.requestLimits()));
    return new AdminApi(
        reloader, new CounterAdmin(reloader::rules, stack.routed()), checks, explainer);
  }

  /** Plaintext, or TLS whose files are re-read every reload interval. */
  private ServerCredentials grpcCredentials(AccessConfig access, Scheduler scheduler) {
    if (access.grpcTls().isEmpty()) {
      return InsecureServerCredentials.create();
    }
    GrpcTls tls = GrpcTls.open(access.grpcTls().get(), config.rules().reloadInterval(), scheduler);
    started.add("grpc tls", tls);
    return tls.credentials();
  }

  private LoadResult.Loaded initialRules(RuleLoader loader) {
    LoadResult result = loader.load(config.rules().path());
    if (result instanceof LoadResult.Failed failed) {
      String problems =
          failed.problems().stream().map(Object::toString).collect(Collectors.joining("; "));
      throw new StartupException("invalid rules: " + problems);
    }
    return (LoadResult.Loaded) result;
  }

  /** Rules from the management server; its callbacks and reconnects run on one thread. */
  private void startXds(XdsConfig xdsConfig, RuleLoader loader) {
    ScheduledExecutorService thread =
        Executors.newSingleThreadScheduledExecutor(new DaemonThreadFactory("sluice-xds"));
    started.add("xds thread", thread::shutdownNow);
    XdsRuleClient client =
        new XdsRuleClient(xdsConfig, loader, reloader, XdsChannels.open(xdsConfig, thread), thread);
    started.add("xds client", client);
    xds = Optional.of(client);
    client.start();
  }

  private static byte[] randomSalt() {
    byte[] salt = new byte[16];
    new SecureRandom().nextBytes(salt);
    return salt;
  }

  private LiveStatus liveStatus() {
    GuardedStore store = stack.store();
    RuleReloader.Snapshot rules = reloader.current();
    Optional<RuleReloader.ReloadError> error = reloader.lastError();
    return new LiveStatus(
        store.kind(),
        store.available(),
        store.state(),
        store.lastError(),
        config.limiter().failureMode().configName(),
        rules.version(),
        rules.loadedAt(),
        error.map(e -> e.problems().stream().map(Object::toString).toList()).orElse(List.of()),
        error.map(RuleReloader.ReloadError::at));
  }

  /** gRPC health follows the same report as /healthcheck, refreshed often. */
  private void startHealthUpdates(Scheduler scheduler) {
    grpc.setServing(health().healthy());
    Scheduler.Cancellable updates =
        scheduler.scheduleWithFixedDelay(
            () -> grpc.setServing(health().healthy()), HEALTH_INTERVAL, HEALTH_INTERVAL);
    started.add("health updates", updates::cancel);
  }

  private HealthReport health() {
    List<String> problems = new ArrayList<>();
    if (draining) {
      problems.add("shutting down");
    }
    if (config.ruleSource() instanceof XdsConfig xdsConfig
        && xdsConfig.requireInitialRules()
        && !xds.map(XdsRuleClient::hasReceivedRules).orElse(false)) {
      problems.add("no rules received yet from xds server " + xdsConfig.server());
    }
    if (config.server().healthNeedsRules() && reloader.rules().domains().isEmpty()) {
      problems.add("no rules loaded (--health-needs-rules)");
    }
    GuardedStore store = stack.store();
    if (!store.available()) {
      problems.add(
          "store "
              + store.kind()
              + " unavailable (circuit "
              + store.state()
              + ": "
              + store.lastError()
              + "); answering by failure mode '"
              + config.limiter().failureMode().configName()
              + "'");
    }
    stack
        .perSecond()
        .filter(second -> !second.available())
        .ifPresent(
            second ->
                problems.add(
                    "store "
                        + second.kind()
                        + " unavailable (circuit "
                        + second.state()
                        + ": "
                        + second.lastError()
                        + "); requests with second limits answered by failure mode '"
                        + config.limiter().failureMode().configName()
                        + "'"));
    List<String> degraded = new ArrayList<>();
    stack
        .synced()
        .failing()
        .ifPresent(
            why ->
                degraded.add(
                    "synced counters cannot reach store "
                        + store.kind()
                        + " ("
                        + why
                        + "); deciding locally, keeping deltas"));
    return new HealthReport(problems, degraded);
  }

  public int grpcPort() {
    return grpc.port();
  }

  public int httpPort() {
    return admin.port();
  }

  /** The admin gRPC port; empty when it is off. */
  public java.util.OptionalInt adminGrpcPort() {
    return adminGrpc == null
        ? java.util.OptionalInt.empty()
        : java.util.OptionalInt.of(adminGrpc.port());
  }

  /** The names of the started parts in start order; they close in reverse. */
  List<String> startedParts() {
    return started.names();
  }

  /**
   * Stops gracefully: health turns unhealthy, the gRPC port stops taking calls, calls in flight
   * finish within the configured grace, then everything else closes. Idempotent.
   */
  @Override
  public synchronized void close() {
    draining = true;
    if (grpc != null) {
      grpc.stop(config.server().shutdownGrace());
    }
    started.closeInReverse();
  }

  /** Rule reloads as metrics. */
  private record ReloadMetrics(SluiceMetrics metrics) implements RuleReloader.Listener {
    @Override
    public void reloaded(RuleReloader.Snapshot snapshot) {
      metrics.reloaded(snapshot.rules().domains().size(), snapshot.rules().rules().size());
      metrics.retainRules(
          snapshot.rules().rules().stream()
              .filter(Rule::counted)
              .collect(
                  Collectors.groupingBy(
                      Rule::domain, Collectors.mapping(Rule::path, Collectors.toSet()))));
    }

    @Override
    public void rejected(RuleReloader.ReloadError error) {
      metrics.reloadRejected();
    }
  }
}
