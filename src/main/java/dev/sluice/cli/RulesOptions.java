package dev.sluice.cli;

import dev.sluice.rules.Algorithm;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The rule options {@code serve} and {@code check} share, so both read rules the same way. */
final class RulesOptions {
  @Option(
      names = "--config",
      defaultValue = "${env:SLUICE_CONFIG:-config/rules}",
      description = "Rule directory or file (env SLUICE_CONFIG, default ${DEFAULT-VALUE}).")
  Path config;

  @Option(
      names = "--default-algorithm",
      defaultValue = "${env:SLUICE_DEFAULT_ALGORITHM:-fixed_window}",
      converter = Converters.AlgorithmConverter.class,
      description =
          "Algorithm of rules and overrides that name none: fixed_window or token_bucket (env"
              + " SLUICE_DEFAULT_ALGORITHM, default ${DEFAULT-VALUE}).")
  Algorithm defaultAlgorithm;
}
