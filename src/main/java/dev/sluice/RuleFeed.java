package dev.sluice;

import dev.sluice.config.ServeConfig;
import dev.sluice.config.XdsConfig;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import dev.sluice.rules.load.RuleReloader;
import dev.sluice.rules.load.RuleWatch;
import dev.sluice.rules.xds.XdsChannels;
import dev.sluice.rules.xds.XdsRuleClient;
import dev.sluice.threads.DaemonThreadFactory;
import dev.sluice.threads.Scheduler;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;

/**
 * Where the served rules come from and how they change, in two steps: {@link #open} loads the rule
 * files (or starts empty, for xDS) and makes the {@link RuleReloader} everything reads the rules
 * from; once the ports are up, {@link #startUpdates} starts the file poll and watch, or the xDS
 * client.
 *
 * <p>Threads: the file poll runs on the root's scheduler, {@code sluice-rules-watch-0} waits for
 * file-system events and hands each to it; the xDS client's callbacks and reconnects run on {@code
 * sluice-xds-0}. Both steps are called by the thread that starts Sluice; {@link #receivedXdsRules}
 * may be called from any thread.
 */
final class RuleFeed {
  private final ServeConfig config;
  private final RuleLoader loader;
  private final LoadResult.Loaded initial;
  private final RuleReloader reloader;

  /** Set once by {@link #startUpdates}; read by health on other threads. */
  private volatile Optional<XdsRuleClient> xds = Optional.empty();

  private RuleFeed(
      ServeConfig config, RuleLoader loader, LoadResult.Loaded initial, RuleReloader reloader) {
    this.config = config;
    this.loader = loader;
    this.initial = initial;
    this.reloader = reloader;
  }

  /**
   * Loads the initial rules and makes the reloader; nothing is polled or watched yet. The caller
   * closes the reloader (it is not started here).
   *
   * @param scheduler runs the file polls once started
   * @throws StartupException naming every problem when the rule files are invalid
   */
  static RuleFeed open(
      ServeConfig config, Clock clock, Scheduler scheduler, SluiceMetrics metrics) {
    RuleLoader loader =
        new RuleLoader(config.rules().defaultAlgorithm(), config.rules().reading())
            .withDefaultConsistency(config.consistency().defaultConsistency());
    ReloadMetrics reloadMetrics = new ReloadMetrics(metrics);
    LoadResult.Loaded loaded;
    RuleReloader reloader;
    if (config.ruleSource() instanceof XdsConfig) {
      // Served until the first push: no domain known, so every request is answered OK.
      loaded = new LoadResult.Loaded(RuleSet.empty(), "none", List.of());
      reloader = RuleReloader.forPushes(loader, loaded, clock, reloadMetrics);
    } else {
      loaded = initialRules(config, loader);
      reloader = new RuleReloader(config.rules(), loader, loaded, clock, scheduler, reloadMetrics);
    }
    if (config.ruleSource() instanceof XdsConfig) {
      // Nothing loaded yet: the first push is the first load.
      metrics.rulesLoaded(loaded.rules().domains().size(), loaded.rules().rules().size());
    } else {
      metrics.initialRulesLoaded(loaded.rules().domains().size(), loaded.rules().rules().size());
    }
    return new RuleFeed(config, loader, loaded, reloader);
  }

  private static LoadResult.Loaded initialRules(ServeConfig config, RuleLoader loader) {
    LoadResult result = loader.load(config.rules().path());
    if (result instanceof LoadResult.Failed failed) {
      String problems =
          failed.problems().stream().map(Object::toString).collect(Collectors.joining("; "));
      throw new StartupException("invalid rules: " + problems);
    }
    return (LoadResult.Loaded) result;
  }

  /** What every request, the admin surface and health read the rules from. */
  RuleReloader reloader() {
    return reloader;
  }

  /** The rules served at startup. */
  LoadResult.Loaded initial() {
    return initial;
  }

  /**
   * Starts following the rules: the xDS client (its thread, then the client, each added to {@code
   * started}), or the file poll and then the watch that makes a poll come early.
   */
  void startUpdates(StartedParts started) {
    if (config.ruleSource() instanceof XdsConfig xdsConfig) {
      startXds(xdsConfig, started);
    } else {
      reloader.start();
      RuleWatch watch =
          new RuleWatch(
              config.rules().path(),
              reloader::pollSoon,
              new DaemonThreadFactory("sluice-rules-watch"));
      started.add("rule watch", watch.start());
    }
  }

  /** Rules from the management server; its callbacks and reconnects run on one thread. */
  private void startXds(XdsConfig xdsConfig, StartedParts started) {
    ScheduledExecutorService thread =
        Executors.newSingleThreadScheduledExecutor(new DaemonThreadFactory("sluice-xds"));
    started.add("xds thread", thread::shutdownNow);
    XdsRuleClient client =
        new XdsRuleClient(xdsConfig, loader, reloader, XdsChannels.open(xdsConfig, thread), thread);
    started.add("xds client", client);
    xds = Optional.of(client);
    client.start();
  }

  /** Whether the xDS client has served a valid snapshot; false for file rules. */
  boolean receivedXdsRules() {
    return xds.map(XdsRuleClient::hasReceivedRules).orElse(false);
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
