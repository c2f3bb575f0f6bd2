package dev.sluice.deploy;

import dev.sluice.cli.Main;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Sluice's own argument parsing, so deployment files are checked against the flags and defaults the
 * code really has rather than against a copy of them.
 */
final class SluiceCommandLine {
  private SluiceCommandLine() {}

  /**
   * Parses {@code args} as {@code java -jar sluice.jar} would, converting every value.
   *
   * @throws CommandLine.ParameterException for an unknown flag or a value that does not convert
   */
  static ParseResult parse(List<String> args) {
    return new CommandLine(new Main()).parseArgs(args.toArray(String[]::new));
  }

  /** The value a subcommand ends up with for {@code option}: given on the line, else default. */
  static Object optionValue(List<String> args, String option) {
    ParseResult subcommand = parse(args).subcommand();
    if (subcommand == null) {
      throw new AssertionError("no subcommand in " + args);
    }
    return subcommand.commandSpec().findOption(option).getValue();
  }

  /** The value {@code serve} uses for {@code option} when the flag is not given. */
  static Object serveDefault(String option) {
    return optionValue(List.of("serve"), option);
  }
}
