package dev.sluice.cli;

import dev.sluice.config.RulesConfig;
import dev.sluice.config.RulesSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.load.RuleLoader;
import java.nio.file.Path;

/**
 * The rule settings {@code serve}, {@code check}, {@code explain} and {@code replay} share, so all
 * of them read rules the same way; declared in {@link RulesSettings}.
 */
final class RulesOptions {
  private final SettingValues values;

  RulesOptions(SettingValues values) {
    this.values = values;
  }

  Path config() {
    return values.get(RulesSettings.CONFIG);
  }

  Algorithm defaultAlgorithm() {
    return values.get(RulesSettings.DEFAULT_ALGORITHM);
  }

  /** A loader configured as these settings say. */
  RuleLoader loader() {
    return new RuleLoader(defaultAlgorithm(), RulesConfig.reading(values))
        .withDefaultConsistency(values.get(RulesSettings.DEFAULT_CONSISTENCY));
  }
}
