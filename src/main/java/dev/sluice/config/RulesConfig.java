package dev.sluice.config;

import dev.sluice.rules.Algorithm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where the rules come from and how they are read.
 *
 * @param path a directory of rule files, or one file
 * @param reloadInterval how often the files are checked for changes
 * @param defaultAlgorithm for rules and overrides that do not name one
 * @param allowEmptyRules serve (and reload to) zero rules; otherwise zero rules fail startup and a
 *     reload to zero rules is rejected, because zero rules limit nothing
 * @param mergeDomains several files may add top-level descriptors to one domain (the reference's
 *     MERGE_DOMAIN_CONFIG)
 */
public record RulesConfig(
    Path path,
    Duration reloadInterval,
    Algorithm defaultAlgorithm,
    boolean allowEmptyRules,
    boolean mergeDomains) {
  public RulesConfig {
    Objects.requireNonNull(path, "path");
    if (reloadInterval.isNegative() || reloadInterval.isZero()) {
      throw new IllegalArgumentException("reload interval must be positive: " + reloadInterval);
    }
    Objects.requireNonNull(defaultAlgorithm, "defaultAlgorithm");
  }

  /** Refusing empty rules, one domain per file. */
  public RulesConfig(Path path, Duration reloadInterval, Algorithm defaultAlgorithm) {
    this(path, reloadInterval, defaultAlgorithm, false, false);
  }

  public static RulesConfig of(Path path) {
    return new RulesConfig(path, Duration.ofSeconds(1), Algorithm.FIXED_WINDOW);
  }

  /** From the declared settings. */
  public static RulesConfig from(SettingValues values) {
    return new RulesConfig(
        values.get(RulesSettings.CONFIG),
        values.get(ServeSettings.RELOAD_INTERVAL),
        values.get(RulesSettings.DEFAULT_ALGORITHM),
        values.get(RulesSettings.ALLOW_EMPTY_RULES),
        values.get(RulesSettings.MERGE_DOMAINS));
  }
}
