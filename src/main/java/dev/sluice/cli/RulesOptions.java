package dev.sluice.cli;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
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
          "Algorithm of rules and overrides that name none: "
              + dev.sluice.rules.Algorithm.CONFIG_NAMES
              + " (env SLUICE_DEFAULT_ALGORITHM, default ${DEFAULT-VALUE}).")
  Algorithm defaultAlgorithm;

  @Option(
      names = "--default-consistency",
      defaultValue = "${env:SLUICE_DEFAULT_CONSISTENCY:-exact}",
      converter = Converters.ConsistencyConverter.class,
      description =
          "Consistency of rules that name none: "
              + Consistency.CONFIG_NAMES
              + " (env SLUICE_DEFAULT_CONSISTENCY, default ${DEFAULT-VALUE}).")
  Consistency defaultConsistency;

  @Option(
      names = "--allow-empty-rules",
      arity = "0..1",
      defaultValue = "${env:SLUICE_ALLOW_EMPTY_RULES:-false}",
      description =
          "Accept a rule directory with no rules (at start, on reload and in check); without it an"
              + " emptied directory keeps the old rules, since zero rules limit nothing (env"
              + " SLUICE_ALLOW_EMPTY_RULES, default ${DEFAULT-VALUE}).")
  boolean allowEmptyRules;

  @Option(
      names = "--merge-domains",
      arity = "0..1",
      defaultValue = "${env:SLUICE_MERGE_DOMAINS:-false}",
      description =
          "Several files may add top-level descriptors to one domain (env SLUICE_MERGE_DOMAINS,"
              + " default ${DEFAULT-VALUE}).")
  boolean mergeDomains;
}
