package dev.sluice.cli;

import dev.sluice.Sluice;
import dev.sluice.StartupException;
import dev.sluice.config.RedisConfig;
import dev.sluice.config.RulesConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.StoreConfig;
import dev.sluice.config.StoreKind;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Runs the service until SIGTERM or SIGINT, then stops gracefully and exits 0. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Serve Envoy's RLS v3 API on the gRPC port and the admin API on the HTTP port.")
final class ServeCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  @Spec CommandSpec spec;

  private final ReferenceEnvironment reference;

  ServeCommand() {
    this(ReferenceEnvironment.none());
  }

  ServeCommand(ReferenceEnvironment reference) {
    this.reference = reference;
  }

  @Mixin RulesOptions rules;

  @Option(
      names = "--reload-interval",
      defaultValue = "${env:SLUICE_RELOAD_INTERVAL:-1s}",
      converter = Converters.DurationConverter.class,
      description =
          "How often rule files are checked for changes (env SLUICE_RELOAD_INTERVAL, default ${DEFAULT-VALUE}).")
  Duration reloadInterval;

  @Option(
      names = "--store",
      defaultValue = "${env:SLUICE_STORE:-memory}",
      converter = Converters.StoreKindConverter.class,
      description = "memory or redis (env SLUICE_STORE, default ${DEFAULT-VALUE}).")
  StoreKind store;

  @Mixin RedisOptions redis;

  @Mixin OverloadOptions overload;

  @Mixin LimiterOptions limiter;

  @Mixin ResponseOptions response;

  @Mixin ServerOptions server;

  @Mixin AccessOptions access;

  @Mixin XdsOptions xds;

  @Mixin TracingOptions tracing;

  @Mixin CaptureOptions capture;

  @Mixin CapacityOptions capacity;

  @Mixin ReferenceMetricsOptions referenceMetrics;

  @Mixin RlqsOptions rlqs;

  @Override
  public Integer call() throws InterruptedException {
    if (!reference.errors().isEmpty()) {
      spec.commandLine().getErr().println("sluice: " + String.join("; ", reference.errors()));
      return Main.USAGE;
    }
    reference.warningLine(spec).ifPresent(log::warn);
    ServeConfig serveConfig = toConfig();
    StopSignal stop = StopSignal.install();
    try (Sluice sluice = Sluice.start(serveConfig, Clock.systemUTC())) {
      // Any other way the JVM ends (SIGHUP, System.exit) still closes Sluice; close is idempotent.
      Runtime.getRuntime().addShutdownHook(new Thread(sluice::close, "sluice-shutdown"));
      stop.await();
      log.info("stopping ({}): draining calls for up to {}", stop.reason(), server.shutdownGrace);
    }
    return 0;
  }

  /** Builds the validated settings; a bad value is a usage error naming it. */
  ServeConfig toConfig() {
    if ("file".equalsIgnoreCase(xds.source.trim()) && !Files.exists(rules.config)) {
      // Not a usage error: the flag is well formed, the files are missing (exit 1, like bad rules).
      throw new StartupException("config path does not exist: " + rules.config);
    }
    try {
      RedisConfig redisConfig = redis.toConfig(overload.redisMaxQueuedHits);
      return new ServeConfig(
          new RulesConfig(
              rules.config,
              reloadInterval,
              rules.defaultAlgorithm,
              rules.allowEmptyRules,
              rules.mergeDomains),
          new StoreConfig(
              store,
              redisConfig,
              overload.breaker(),
              capacity.memoryMaxCounters,
              redis.perSecond(redisConfig)),
          server.toConfig(access.toConfig()),
          limiter.toConfig(rules.defaultAlgorithm),
          response.toConfig(),
          xds.toSource(),
          tracing.toConfig(),
          capacity.requestLimits(),
          capture.toConfig(),
          limiter.consistency(rules.defaultConsistency),
          referenceMetrics.toConfig(),
          rlqs.toConfig());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
