package dev.sluice;

import dev.sluice.admin.HealthReport;
import dev.sluice.assembly.LimiterStack;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.ServerSettings;
import dev.sluice.config.XdsConfig;
import dev.sluice.live.LiveStatus;
import dev.sluice.rules.load.RuleReloader;
import dev.sluice.store.GuardedStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * What the process says about itself, read fresh on every call: the health report behind {@code
 * /healthcheck} and gRPC health, and the status line of the live page.
 *
 * <p>Threads: called from the admin HTTP threads and the root's scheduler (the gRPC health
 * updates); it only reads the rules' snapshot, the stores' breaker state and volatile flags.
 */
final class ProcessStatus {
  private final ServeConfig config;
  private final RuleFeed rules;
  private final LimiterStack stack;
  private final BooleanSupplier draining;

  /**
   * @param draining true once the process is shutting down
   */
  ProcessStatus(ServeConfig config, RuleFeed rules, LimiterStack stack, BooleanSupplier draining) {
    this.config = config;
    this.rules = rules;
    this.stack = stack;
    this.draining = draining;
  }

  /**
   * Unhealthy while shutting down, without required rules, or with a store out (unless health does
   * not follow the store: then a store out is a degradation); else healthy.
   */
  HealthReport health() {
    List<String> problems = new ArrayList<>();
    if (draining.getAsBoolean()) {
      problems.add("shutting down");
    }
    if (config.ruleSource() instanceof XdsConfig xdsConfig
        && xdsConfig.requireInitialRules()
        && !rules.receivedXdsRules()) {
      problems.add("no rules received yet from xds server " + xdsConfig.server());
    }
    if (config.server().healthNeedsRules() && rules.reloader().rules().domains().isEmpty()) {
      problems.add("no rules loaded (--health-needs-rules)");
    }
    List<String> degraded = degraded();
    // With --health-follows-store=false a store outage is shown but does not fail the probe.
    storeProblems(config.settings().get(ServerSettings.HEALTH_FOLLOWS_STORE) ? problems : degraded);
    return new HealthReport(problems, degraded);
  }

  private void storeProblems(List<String> problems) {
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
              + failureMode()
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
                        + failureMode()
                        + "'"));
  }

  private List<String> degraded() {
    List<String> degraded = new ArrayList<>();
    stack
        .synced()
        .failing()
        .ifPresent(
            why ->
                degraded.add(
                    "synced counters cannot reach store "
                        + stack.store().kind()
                        + " ("
                        + why
                        + "); deciding locally, keeping deltas"));
    return degraded;
  }

  /** The live page's line: the store's state, the failure mode and the rules' version. */
  LiveStatus liveStatus() {
    GuardedStore store = stack.store();
    RuleReloader.Snapshot snapshot = rules.reloader().current();
    Optional<RuleReloader.ReloadError> error = rules.reloader().lastError();
    return new LiveStatus(
        store.kind(),
        store.available(),
        store.state(),
        store.lastError(),
        failureMode(),
        snapshot.version(),
        snapshot.loadedAt(),
        error.map(e -> e.problems().stream().map(Object::toString).toList()).orElse(List.of()),
        error.map(RuleReloader.ReloadError::at));
  }

  private String failureMode() {
    return config.limiter().failureMode().configName();
  }
}
