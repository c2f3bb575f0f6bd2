package dev.sluice.config;

import dev.sluice.rules.Algorithm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Where the rules come from and how they are read.
 *
 * @param path a directory of rule files, or one file
 * @param reloadInterval how often the files are checked for changes
 * @param defaultAlgorithm for rules and overrides that do not name one
 * @param reading what the loader allows beyond its strict default; empty for none
 */
public record RulesConfig(
    Path path, Duration reloadInterval, Algorithm defaultAlgorithm, Set<Reading> reading) {

  /** What reading rules may allow; a set of these, not positional booleans. */
  public enum Reading {
    /**
     * Serve (and reload to) zero rules; without it zero rules fail startup and a reload to zero
     * rules is rejected, because zero rules limit nothing.
     */
    ALLOW_EMPTY_RULES,
    /**
     * Several files may add top-level descriptors to one domain (the reference's
     * MERGE_DOMAIN_CONFIG).
     */
    MERGE_DOMAINS
  }

  public RulesConfig {
    Objects.requireNonNull(path, "path");
    reading = Set.copyOf(reading);
    if (reloadInterval.isNegative() || reloadInterval.isZero()) {
      throw new IllegalArgumentException("reload interval must be positive: " + reloadInterval);
    }
    Objects.requireNonNull(defaultAlgorithm, "defaultAlgorithm");
  }

  /** Whether zero rules are served, see {@link Reading#ALLOW_EMPTY_RULES}. */
  public boolean allowEmptyRules() {
    return reading.contains(Reading.ALLOW_EMPTY_RULES);
  }

  /** {@code path}, checked every second, fixed windows, strict reading. */
  public static RulesConfig of(Path path) {
    return new RulesConfig(path, Duration.ofSeconds(1), Algorithm.FIXED_WINDOW, Set.of());
  }

  /** From the declared settings. */
  public static RulesConfig from(SettingValues values) {
    return new RulesConfig(
        values.get(RulesSettings.CONFIG),
        values.get(ServeSettings.RELOAD_INTERVAL),
        values.get(RulesSettings.DEFAULT_ALGORITHM),
        reading(values));
  }

  /** The reading the declared settings ask for (also {@code check}'s, which has no reload). */
  public static Set<Reading> reading(SettingValues values) {
    Set<Reading> reading = EnumSet.noneOf(Reading.class);
    if (values.get(RulesSettings.ALLOW_EMPTY_RULES)) {
      reading.add(Reading.ALLOW_EMPTY_RULES);
    }
    if (values.get(RulesSettings.MERGE_DOMAINS)) {
      reading.add(Reading.MERGE_DOMAINS);
    }
    return reading;
  }
}
