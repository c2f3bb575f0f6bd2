package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.admin.HealthReport;
import dev.sluice.assembly.LimiterStack;
import dev.sluice.config.RulesConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.ServerSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.config.StoreConfig;
import dev.sluice.config.XdsConfig;
import dev.sluice.live.LiveStatus;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.GuardedStore;
import dev.sluice.store.Hit;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import dev.sluice.tracing.Tracing;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Health and the live page's status over real rules and a memory store, timers on a FakeClock. */
class ProcessStatusTest {
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: 3}
      """;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
  private final AtomicBoolean draining = new AtomicBoolean();
  private final List<LimiterStack> stacks = new ArrayList<>();
  private RuleFeed rules;

  @TempDir Path dir;

  @AfterEach
  void close() {
    stacks.forEach(LimiterStack::close);
  }

  private ServeConfig fileRules() throws IOException {
    Files.writeString(dir.resolve("rules.yaml"), RULES);
    ServeConfig config = RunningSluice.config(RunningSluice.memoryStore());
    return config.toBuilder()
        .rules(
            new RulesConfig(
                dir, Duration.ofSeconds(1), config.rules().defaultAlgorithm(), Set.of()))
        .build();
  }

  private ProcessStatus status(ServeConfig config) {
    rules = RuleFeed.open(config, clock, clock, metrics);
    LimiterStack stack =
        LimiterStack.open(
            new LimiterStack.Settings(config.store(), config.limiter(), config.consistency()),
            rules.reloader()::rules,
            new LimiterStack.Context(clock, clock, metrics, Tracing.off()));
    stacks.add(stack);
    return new ProcessStatus(config, rules, stack, draining::get);
  }

  @Test
  void health_fileRulesOnTheMemoryStore_healthyAndNotDegraded() throws IOException {
    HealthReport health = status(fileRules()).health();

    assertThat(health.healthy()).isTrue();
    assertThat(health.degraded()).isEmpty();
  }

  @Test
  void health_drainingAfterItWasMade_unhealthyBecauseShuttingDown() throws IOException {
    ProcessStatus status = status(fileRules());

    draining.set(true);

    assertThat(status.health().problems()).containsExactly("shutting down");
  }

  @Test
  void health_xdsBeforeTheFirstPush_unhealthyNamingTheServer() {
    ServeConfig config =
        RunningSluice.config(RunningSluice.memoryStore()).toBuilder()
            .ruleSource(XdsConfig.plaintext("xds.internal:18000"))
            .build();

    HealthReport health = status(config).health();

    assertThat(health.problems())
        .containsExactly("no rules received yet from xds server xds.internal:18000");
  }

  @Test
  void health_healthNeedsRulesWithXdsNotRequiringThem_unhealthyWithoutDomains() {
    ServeConfig base = RunningSluice.config(RunningSluice.memoryStore());
    XdsConfig lenient =
        new XdsConfig(
            "xds.internal:18000",
            "default",
            "{}",
            XdsConfig.Tls.PLAINTEXT,
            Map.of(),
            XdsConfig.Backoff.DEFAULT,
            4 << 20,
            false);
    ServeConfig config =
        base.toBuilder()
            .ruleSource(lenient)
            .server(base.server().toBuilder().healthNeedsRules(true).build())
            .build();

    assertThat(status(config).health().problems())
        .containsExactly("no rules loaded (--health-needs-rules)");
  }

  @Test
  void health_storeBreakerOpen_unhealthyByDefault_degradedWhenHealthDoesNotFollowTheStore()
      throws IOException {
    ServeConfig follows = fileRules().toBuilder().store(redisWhereNoneListens()).build();
    ServeConfig apart =
        follows.toBuilder()
            .settings(
                SettingValues.builder().set(ServerSettings.HEALTH_FOLLOWS_STORE, false).build())
            .build();

    HealthReport followed = withBreakerOpen(status(follows)).health();
    HealthReport notFollowed = withBreakerOpen(status(apart)).health();

    assertThat(followed.healthy()).isFalse();
    assertThat(followed.problems())
        .singleElement()
        .asString()
        .contains("unavailable (circuit open");
    assertThat(notFollowed.healthy()).isTrue();
    assertThat(notFollowed.problems()).isEmpty();
    assertThat(notFollowed.degraded())
        .singleElement()
        .asString()
        .contains("unavailable (circuit open");
  }

  /** A Redis store on a port that was free a moment ago: every connection is refused. */
  private static StoreConfig redisWhereNoneListens() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    return RunningSluice.redisStore(URI.create("redis://127.0.0.1:" + port));
  }

  /** Refused connections open the breaker within a few calls. */
  private ProcessStatus withBreakerOpen(ProcessStatus status) {
    GuardedStore store = stacks.get(stacks.size() - 1).store();
    Limit limit = Limit.of(10, Unit.HOUR, Algorithm.FIXED_WINDOW);
    for (int i = 0; i < 20 && store.available(); i++) {
      store.acquire(List.of(new Hit("fw|3600|health|k", limit, 1))).handle((u, e) -> e).join();
    }
    assertThat(store.state()).as("breaker after refused connections").isEqualTo("open");
    return status;
  }

  @Test
  void liveStatus_fileRules_theServedVersionAndTheFailureMode() throws IOException {
    ServeConfig config = fileRules();

    LiveStatus live = status(config).liveStatus();

    assertThat(live.rulesVersion()).isEqualTo(rules.initial().version());
    assertThat(live.failureMode()).isEqualTo(config.limiter().failureMode().configName());
    assertThat(live.storeKind()).isEqualTo("memory");
    assertThat(live.storeUp()).isTrue();
    assertThat(live.reloadProblems()).isEmpty();
  }
}
