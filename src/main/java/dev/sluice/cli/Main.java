package dev.sluice.cli;

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
      BenchServerCommand.class
    })
public final class Main implements Runnable {

  /** Exit code for a bad command line or invalid settings. */
  static final int USAGE = 2;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs a command and returns its exit code; never calls {@code System.exit}. */
  public static int run(String... args) {
    CommandLine commandLine = new CommandLine(new Main());
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

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }
}
