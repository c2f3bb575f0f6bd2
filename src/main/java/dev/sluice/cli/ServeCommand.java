package dev.sluice.cli;

import dev.sluice.Sluice;
import dev.sluice.StartupException;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.SettingValues;
import dev.sluice.config.XdsSettings;
import java.nio.file.Files;
import java.time.Clock;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Runs the service until SIGTERM or SIGINT, then stops gracefully and exits 0. */
@Command(
    modelTransformer = SettingOptions.Serve.class,
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
      log.info(
          "stopping ({}): draining calls for up to {}",
          stop.reason(),
          serveConfig.server().shutdownGrace());
    }
    return 0;
  }

  /** Builds the validated settings; a bad value is a usage error naming it. */
  ServeConfig toConfig() {
    SettingValues values = SettingOptions.values(spec);
    RulesOptions rules = new RulesOptions(values);
    if ("file".equalsIgnoreCase(values.get(XdsSettings.CONFIG_SOURCE).trim())
        && !Files.exists(rules.config())) {
      // Not a usage error: the flag is well formed, the files are missing (exit 1, like bad rules).
      throw new StartupException("config path does not exist: " + rules.config());
    }
    try {
      return ServeConfig.from(values);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
