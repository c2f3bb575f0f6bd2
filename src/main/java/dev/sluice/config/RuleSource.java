package dev.sluice.config;

/**
 * Where the served rules come from: the rule files of {@link RulesConfig#path()} (polled and
 * hot-reloaded), or a control plane over xDS ({@link XdsConfig}), which then replaces the files.
 */
public sealed interface RuleSource permits RuleSource.Files, XdsConfig {

  /** The rule files; the default. */
  record Files() implements RuleSource {}

  RuleSource FILES = new Files();
}
