package dev.sluice.cli;

import dev.sluice.logging.JulBridge;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code java -jar sluice.jar serve|check ...}. */
@Command(
    name = "sluice",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Global rate-limit service for Envoy (RLS v3).",
    subcommands = {
      ServeCommand.class,
      CheckCommand.class,
      BenchCommand.class,
      BenchServerCommand.class,
      CallCommand.class,
      ExplainCommand.class,
      ReplayCommand.class
    })
public final class Main implements Callable<Integer> {

  /** Exit code for a bad command line or invalid settings. */
  static final int USAGE = 2;

  public static void main(String[] args) {
    ReferenceEnvironment reference = ReferenceEnvironment.of(System.getenv());
    configureLogging(reference);
    JulBridge.install();
    System.exit(run(reference, args));
  }

  /**
   * Before the first logger exists: logback.xml reads {@code SLUICE_LOG_LEVEL} from system
   * properties as well as the environment, so the reference's LOG_LEVEL reaches it this way, and
   * LOG_FORMAT=json selects the JSON configuration.
   */
  private static void configureLogging(ReferenceEnvironment reference) {
    reference.logLevel().ifPresent(level -> System.setProperty("SLUICE_LOG_LEVEL", level));
    if (reference.logFormat().equals("json")
        && System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", "logback-json.xml");
    }
  }

  /**
   * Runs a command with the {@code SLUICE_*} variables of this process but none of the reference's,
   * and returns its exit code; never calls {@code System.exit}.
   */
  public static int run(String... args) {
    Map<String, String> sluice = new HashMap<>(System.getenv());
    sluice.keySet().removeIf(name -> !name.startsWith("SLUICE_"));
    return run(ReferenceEnvironment.of(sluice), args);
  }

  /**
   * Runs a command with {@code reference}'s translation of the reference service's variables as
   * defaults behind the {@code SLUICE_*} ones; never calls {@code System.exit}.
   */
  public static int run(ReferenceEnvironment reference, String... args) {
    CommandLine.IFactory defaults = CommandLine.defaultFactory();
    CommandLine commandLine =
        new CommandLine(
            new Main(),
            new CommandLine.IFactory() {
              @Override
              @SuppressWarnings("unchecked")
              public <K> K create(Class<K> type) throws Exception {
                return type == ServeCommand.class
                    ? (K) new ServeCommand(reference)
                    : defaults.create(type);
              }
            });
    commandLine.setDefaultValueProvider(reference);
    commandLine.setParameterExceptionHandler(Main::usageError);
    commandLine.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          cmd.getErr().println("sluice: " + e.getMessage());
          return 1;
        });
    return commandLine.execute(args);
  }

  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    cmd.getErr()
        .println("sluice: " + e.getMessage() + " (see '" + cmd.getCommandName() + " --help')");
    return USAGE;
  }

  /** Without a subcommand there is nothing to do: usage on stderr and the usage exit code. */
  @Override
  public Integer call() {
    new CommandLine(this).usage(System.err);
    return USAGE;
  }
}
