package dev.sluice;

import dev.sluice.admin.AdminAccess;
import dev.sluice.admin.AdminApi;
import dev.sluice.admin.AdminGate;
import dev.sluice.admin.AdminGrpcService;
import dev.sluice.admin.AdminHttpServer;
import dev.sluice.admin.AdminHttpServer.Lane;
import dev.sluice.admin.CounterAdmin;
import dev.sluice.admin.CountersHandler;
import dev.sluice.admin.DebugListener;
import dev.sluice.admin.ExplainHandler;
import dev.sluice.admin.HealthHandler;
import dev.sluice.admin.JsonHandler;
import dev.sluice.admin.MetricsHandler;
import dev.sluice.admin.ReadGuard;
import dev.sluice.admin.RlconfigHandler;
import dev.sluice.admin.RulesHandler;
import dev.sluice.config.AccessConfig;
import dev.sluice.config.GrpcTransportConfig;
import dev.sluice.config.GrpcTransportConfig.RlsHandlers;
import dev.sluice.config.ServeConfig;
import dev.sluice.explain.Explainer;
import dev.sluice.explain.RequestExplainer;
import dev.sluice.live.LiveHandler;
import dev.sluice.live.LiveStats;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rlqs.RlqsService;
import dev.sluice.rules.load.RuleReloader;
import dev.sluice.server.GrpcServer;
import dev.sluice.server.PortLimits;
import dev.sluice.server.TransportReport;
import dev.sluice.service.RateLimitGrpcService;
import dev.sluice.service.RequestMapping;
import dev.sluice.store.CounterStore;
import io.grpc.InsecureServerCredentials;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The operator's surface: one {@link AdminApi} facade behind the admin gRPC port (when {@code
 * --admin-grpc-port} is set) and the admin HTTP port with its routes, then the reference's debug
 * port (when {@code --debug-port} is set), started in that order.
 *
 * <p>Threads: the admin HTTP port's {@code admin-http-io-N}, {@code admin-http-N} and {@code
 * admin-http-timer-0} ({@link AdminHttpServer}), the debug port's own (the same names), and the
 * admin gRPC port's own two handler threads; {@link #start} runs on the thread that starts Sluice.
 */
final class AdminSurface {
  /**
   * What the admin ports read and change.
   *
   * @param counters what inspect and explain read: the primary store, or a synced or split rule's
   *     local view
   * @param service what {@code /json} sends a request through
   * @param transport where the admin gRPC port's client limits report, as the RLS port's do
   */
  record Sources(
      RuleReloader rules,
      CounterStore counters,
      SluiceMetrics metrics,
      RateLimitGrpcService service,
      LiveStats live,
      TransportReport transport,
      Optional<RlqsService> rlqs) {
    Sources {
      Objects.requireNonNull(rules, "rules");
      Objects.requireNonNull(counters, "counters");
      Objects.requireNonNull(metrics, "metrics");
      Objects.requireNonNull(service, "service");
      Objects.requireNonNull(live, "live");
      Objects.requireNonNull(transport, "transport");
      Objects.requireNonNull(rlqs, "rlqs");
    }
  }

  private final Optional<GrpcServer> grpc;
  private final AdminHttpServer http;
  private final Optional<AdminHttpServer> debug;

  private AdminSurface(
      Optional<GrpcServer> grpc, AdminHttpServer http, Optional<AdminHttpServer> debug) {
    this.grpc = grpc;
    this.http = http;
    this.debug = debug;
  }

  /**
   * Starts the admin gRPC port (when configured), then the admin HTTP port, each added to {@code
   * started} as it starts.
   *
   * @throws RuntimeException when the token file cannot be read or a port cannot be bound
   */
  static AdminSurface start(
      ServeConfig config, Sources sources, ProcessStatus status, StartedParts started) {
    AccessConfig access = config.server().access();
    AdminApi api = api(config, sources);
    Optional<GrpcServer> grpc = Optional.empty();
    if (access.adminGrpcPort().isPresent()) {
      GrpcServer server =
          new GrpcServer(
              new InetSocketAddress(access.httpBind(), access.adminGrpcPort().getAsInt()),
              InsecureServerCredentials.create(),
              List.of(new AdminGrpcService(api).withCaller()),
              // The RLS port's per-client limits, counted in the same metrics: a flood on this
              // port is as able to exhaust the heap.
              new GrpcServer.Settings(
                  2,
                  config.server().connectionAge(),
                  GrpcTransportConfig.defaults().toBuilder().rlsHandlers(RlsHandlers.POOL).build(),
                  new PortLimits(config.server().grpcLimits(), sources.transport())));
      started.add("admin grpc server", server.start());
      server.setServing(true);
      grpc = Optional.of(server);
    }
    AdminHttpServer http =
        new AdminHttpServer(
            new InetSocketAddress(access.httpBind(), config.server().httpPort()),
            config.server().adminHttp());
    route(http, api, sources, status);
    started.add("admin http server", http.start());
    Optional<AdminHttpServer> debug = Optional.empty();
    if (access.debugPort().isPresent()) {
      AdminHttpServer server =
          DebugListener.on(
              new InetSocketAddress(access.httpBind(), access.debugPort().getAsInt()),
              config.server().adminHttp(),
              new ReadGuard(api),
              new RlconfigHandler(sources.rules()::rules));
      started.add("debug http server", server.start());
      debug = Optional.of(server);
    }
    return new AdminSurface(grpc, http, debug);
  }

  private static AdminApi api(ServeConfig config, Sources sources) {
    AccessConfig access = config.server().access();
    AdminAccess checks =
        AdminAccess.of(
            access.adminTokenFile().map(AdminAccess::readTokenFile),
            access.adminTokenForReads(),
            config.server().adminReadOnly());
    RuleReloader reloader = sources.rules();
    // Explain reads what inspect reads: the primary store, or a synced or split rule's local view.
    RequestExplainer explainer =
        new RequestExplainer(
            new Explainer(reloader::rules, sources.counters(), config.rules().defaultAlgorithm()),
            new RequestMapping(config.requestLimits()));
    return new AdminApi(
        reloader,
        new CounterAdmin(reloader::rules, sources.counters(), sources.metrics()::detailedLabel),
        checks,
        explainer);
  }

  private static void route(
      AdminHttpServer http, AdminApi api, Sources sources, ProcessStatus status) {
    AdminGate reads = new ReadGuard(api);
    // The probe's route never blocks and is answered on the I/O threads: nothing queues before it.
    http.handle("/healthcheck", reads, Lane.IO, new HealthHandler(status::health));
    http.handle("/metrics", reads, Lane.HANDLERS, new MetricsHandler(sources.metrics()));
    http.handle("/rules", AdminGate.OPEN, Lane.HANDLERS, new RulesHandler(api));
    http.handle("/rlconfig", reads, Lane.HANDLERS, new RlconfigHandler(sources.rules()::rules));
    http.handle("/json", reads, Lane.HANDLERS, new JsonHandler(sources.service()));
    http.handle("/counters", AdminGate.OPEN, Lane.HANDLERS, new CountersHandler(api));
    // Explain checks the read token itself too; the gate refuses before the body is read.
    http.handle("/explain", reads, Lane.HANDLERS, new ExplainHandler(api));
    // The page itself is the same static file for everyone and holds no data, so a browser can
    // load it without a header; what it shows comes from /ui/data, behind the read guard.
    LiveHandler livePage =
        new LiveHandler(
            sources.live(), status::liveStatus, () -> sources.rlqs().map(RlqsService::snapshot));
    http.handle("/ui", AdminGate.OPEN, Lane.HANDLERS, livePage);
    http.handle("/ui/data", reads, Lane.HANDLERS, livePage);
  }

  int httpPort() {
    return http.port();
  }

  /** The reference's debug port ({@code /rlconfig}); empty when it is off. */
  OptionalInt debugPort() {
    return debug.map(server -> OptionalInt.of(server.port())).orElse(OptionalInt.empty());
  }

  /** Empty when the admin gRPC port is off. */
  OptionalInt grpcPort() {
    return grpc.map(server -> OptionalInt.of(server.port())).orElse(OptionalInt.empty());
  }
}
