package dev.sluice;

import dev.sluice.assembly.LimiterStack;
import dev.sluice.capture.CaptureWriter;
import dev.sluice.capture.RequestCapture;
import dev.sluice.config.AccessConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.live.LiveStats;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.refstats.MapperException;
import dev.sluice.refstats.ReferenceMetrics;
import dev.sluice.rlqs.RlqsService;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.server.GrpcServer;
import dev.sluice.server.GrpcTls;
import dev.sluice.server.PortLimits;
import dev.sluice.server.TransportReport;
import dev.sluice.service.GrpcPatience;
import dev.sluice.service.RateLimitGrpcService;
import dev.sluice.store.redis.RedisCounterStore;
import dev.sluice.threads.DaemonThreadFactory;
import dev.sluice.threads.ExecutorScheduler;
import dev.sluice.threads.Scheduler;
import dev.sluice.tracing.OtelTracing;
import dev.sluice.tracing.Tracing;
import io.grpc.InsecureServerCredentials;
import io.grpc.ServerCredentials;
import io.grpc.ServerServiceDefinition;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: the only place long-lived objects are created. {@link #start} wires and
 * starts them in dependency order; {@link #close} drains and stops them in reverse.
 *
 * <p>Which thread runs what (every one a daemon from {@link DaemonThreadFactory}, created here or
 * by a component given its factory or the scheduler here; no constructor starts one; {@code
 * ThreadMapIT} fails on a thread missing from this list):
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
 *       RedisCounterStore}); {@code sluice-redis-per-second-lane-N} the same for {@code
 *       --redis-per-second-url};
 *   <li>{@code CompletableFutureDelayScheduler} (the JDK's one delay thread): times out Redis
 *       answers that do not come ({@code AnswerDeadlines}) and paces a Cluster's TRYAGAIN;
 *   <li>{@code sluice-explain-redis-N}: reads counters for the admin API's explain on Redis;
 *   <li>{@code sluice-scheduler-N} (the one {@link Scheduler}): memory sweeps, the breaker probe,
 *       rule reload polls, gRPC health updates, the synced counters' sync (which waits there for
 *       its pipeline's answer), the split heartbeat and the RLQS turn (which waits there for its
 *       Redis demand exchange);
 *   <li>{@code sluice-rules-watch-0}: waits for file-system events and hands each to the scheduler
 *       (the JDK's {@code FileSystemWatchService} thread collects them for it);
 *   <li>{@code sluice-xds-0}: the xDS rule client's callbacks and reconnects;
 *   <li>{@code sluice-capture-0} ({@code --capture-file} only): writes sampled requests;
 *   <li>{@code admin-http-io-N} (Jetty's acceptor, which it renames {@code
 *       admin-http-io-N-acceptor-…} while it accepts, selectors and {@code /healthcheck}), {@code
 *       admin-http-N} (the routes that may block) and {@code admin-http-timer-0} (header and body
 *       deadlines): the admin HTTP port, and each of the debug port ({@code --debug-port}) and the
 *       reference's Prometheus endpoint ({@code --reference-metrics-addr}) has its own set;
 *   <li>{@code prometheus-metrics-scheduler} (the Prometheus client library's own): its histograms'
 *       exemplar sampling;
 *   <li>{@code bench-rlqs-0}: not {@code serve}'s; paces {@code sluice bench --rlqs}'s simulated
 *       Envoys;
 *   <li>{@code bench-after-error-0}: not {@code serve}'s; {@code sluice bench}'s pause after a
 *       failed request.
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
  private final ReferenceMetrics referenceMetrics;
  private final SluiceMetrics metrics;
  private volatile boolean draining;
  private GrpcServer grpc;
  private AdminSurface admin;

  /**
   * @throws StartupException when the reference metrics' mapper file is unreadable or invalid
   */
  private Sluice(ServeConfig config) {
    this.config = config;
    try {
      this.referenceMetrics = ReferenceMetrics.of(config.referenceMetrics());
    } catch (MapperException | UncheckedIOException e) {
      throw new StartupException("reference metrics mapper: " + e.getMessage(), e);
    }
    this.metrics = new SluiceMetrics(new PrometheusRegistry(), referenceMetrics.mirror());
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

  /**
   * The start order, each part added to {@link #started} as it starts (so {@link #close} stops them
   * in reverse): the scheduler, the rule reloader, tracing, the limiter stack, the capture writer,
   * RLQS, the gRPC transport report, the RLS port (its TLS first), the admin ports, then the rule
   * updates and the health updates.
   */
  private void startAll(Clock clock) {
    // The whole tree, secrets masked: what this process runs with, in one line.
    log.info("starting with {}", config);
    ExecutorScheduler scheduler =
        started.add("scheduler", new ExecutorScheduler(SCHEDULER_THREADS));
    RuleFeed rules = RuleFeed.open(config, clock, scheduler, metrics);
    started.add("rule reloader", rules.reloader());
    // Before the store: a Redis store reports its pipelines to it.
    Tracing tracing = started.add("tracing", tracing());
    LimiterStack stack =
        started.add(
            "limiter stack",
            LimiterStack.open(
                new LimiterStack.Settings(config.store(), config.limiter(), config.consistency()),
                rules.reloader()::rules,
                new LimiterStack.Context(
                    clock, scheduler, metrics, tracing, GrpcPatience.CURRENT)));
    ProcessStatus status = new ProcessStatus(config, rules, stack, () -> draining);
    LiveStats live = new LiveStats(clock, randomSalt());
    RateLimitGrpcService service = rlsService(stack.limiter(live), tracing, clock);
    List<ServerServiceDefinition> services = new ArrayList<>();
    services.add(tracing.intercept(service.definition()));
    Optional<RlqsService> rlqs =
        config.rlqs().enabled()
            ? Optional.of(startRlqs(rules.reloader()::rules, scheduler, tracing, clock))
            : Optional.empty();
    rlqs.ifPresent(quotas -> services.add(quotas.definition()));
    TransportReport transport = new TransportReport(metrics.grpcTransport(), clock);
    started.add("grpc transport report", transport.start(scheduler));
    // Set before it starts: a port that cannot be bound is still stopped by close().
    grpc = rlsServer(services, scheduler, transport);
    started.add("grpc server", grpc.start());
    admin =
        startAdmin(
            new AdminSurface.Sources(
                rules.reloader(), stack.routed(), metrics, service, live, transport, rlqs),
            status);
    referenceMetrics
        .start(config.server().adminHttp())
        .ifPresent(server -> started.add("reference metrics server", server));
    rules.startUpdates(started);
    startHealthUpdates(scheduler, status);
    logReady(rules.initial(), stack);
  }

  /** Chosen once here; off is a null object, so nothing downstream asks whether it is on. */
  private Tracing tracing() {
    return config.tracing().enabled() ? OtelTracing.create(config.tracing()) : Tracing.off();
  }

  /**
   * The RLS adapter over {@code limiter}, capturing requests when {@code --capture-file} is set.
   */
  private RateLimitGrpcService rlsService(RateLimiter limiter, Tracing tracing, Clock clock) {
    RequestCapture capture = startCapture(clock);
    return new RateLimitGrpcService(
        limiter, config.requestLimits(), config.headers(), metrics, tracing, capture, clock);
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

  /**
   * Envoy's Rate Limit Quota Service on the RLS port (so behind its TLS): its turn every report
   * interval on the scheduler, where it waits for the Redis demand exchange; closed after the port.
   */
  private RlqsService startRlqs(
      Supplier<RuleSet> rules, Scheduler scheduler, Tracing tracing, Clock clock) {
    RlqsService rlqs =
        started.add(
            "rlqs",
            RlqsService.create(
                new RlqsService.Settings(
                    config.rlqs(), config.store(), config.limiter(), metrics.rlqs(), tracing),
                rules,
                clock));
    started.add("rlqs turns", rlqs.start(scheduler)::cancel);
    return rlqs;
  }

  /** The RLS port, not yet started; its TLS credentials (when configured) are started here. */
  private GrpcServer rlsServer(
      List<ServerServiceDefinition> services, Scheduler scheduler, TransportReport transport) {
    AccessConfig access = config.server().access();
    return new GrpcServer(
        new InetSocketAddress(access.grpcBind(), config.server().grpcPort()),
        grpcCredentials(access, scheduler),
        services,
        new GrpcServer.Settings(
            config.server().grpcThreads(),
            config.server().connectionAge(),
            config.server().transport().resolvedFor(config.store()),
            new PortLimits(config.server().grpcLimits(), transport)));
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

  private AdminSurface startAdmin(AdminSurface.Sources sources, ProcessStatus status) {
    if (config.server().access().adminTokenFile().isEmpty()) {
      log.info("admin writes disabled: no --admin-token-file");
    }
    return AdminSurface.start(config, sources, status, started);
  }

  private static byte[] randomSalt() {
    byte[] salt = new byte[16];
    new SecureRandom().nextBytes(salt);
    return salt;
  }

  /** gRPC health follows the same report as /healthcheck, refreshed often. */
  private void startHealthUpdates(Scheduler scheduler, ProcessStatus status) {
    grpc.setServing(status.health().healthy());
    Scheduler.Cancellable updates =
        scheduler.scheduleWithFixedDelay(
            () -> grpc.setServing(status.health().healthy()), HEALTH_INTERVAL, HEALTH_INTERVAL);
    started.add("health updates", updates::cancel);
  }

  private void logReady(LoadResult.Loaded loaded, LimiterStack stack) {
    if (!stack.storeUpAtStartup()) {
      log.warn(
          "store {} unreachable at startup ({}); answering by failure mode '{}' until it answers",
          stack.store().kind(),
          stack.store().lastError(),
          config.limiter().failureMode().configName());
    }
    AccessConfig access = config.server().access();
    log.info(
        "Sluice ready: grpc port {}, http port {}, store {}, {} domains, {} rules (version {}),"
            + " failure mode {}; grpc on {}{}, http on {}, admin grpc port {}, admin writes {}",
        grpc.port(),
        admin.httpPort(),
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

  public int grpcPort() {
    return grpc.port();
  }

  public int httpPort() {
    return admin.httpPort();
  }

  /** The port of the reference's Prometheus endpoint; empty when it is off. */
  public OptionalInt referenceMetricsPort() {
    return referenceMetrics.port();
  }

  /** The admin gRPC port; empty when it is off. */
  public OptionalInt adminGrpcPort() {
    return admin.grpcPort();
  }

  /**
   * The debug port ({@code /rlconfig}, the reference's {@code DEBUG_PORT}); empty when it is off.
   */
  public OptionalInt debugPort() {
    return admin.debugPort();
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
}
