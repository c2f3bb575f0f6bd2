package dev.sluice.rules;

import java.util.Locale;
import java.util.Optional;

/**
 * How a limit counts hits, as named in rule files (Sluice's extension to the rule format). This is
 * the rule model's view only: the name and which fields a limit may set. How each algorithm counts
 * on each store is its class in {@code dev.sluice.store.algorithm}.
 */
public enum Algorithm {
  /** Counts hits per epoch-aligned window; the reference service's only algorithm. */
  FIXED_WINDOW("fixed_window", false),
  /** Refills {@code requests_per_unit} tokens per window continuously, up to {@code burst}. */
  TOKEN_BUCKET("token_bucket", true);

  private final String configName;
  private final boolean takesBurst;

  Algorithm(String configName, boolean takesBurst) {
    this.configName = configName;
    this.takesBurst = takesBurst;
  }

  /**
   * Whether a limit may set {@code burst} (a capacity other than {@code requests_per_unit}); when
   * not, its burst equals its rate.
   */
  public boolean takesBurst() {
    return takesBurst;
  }

  /** The spelling used in rule files and flags. */
  public String configName() {
    return configName;
  }

  /** Parses {@code fixed_window} or {@code token_bucket} (case-insensitive); empty if unknown. */
  public static Optional<Algorithm> parse(String name) {
    if (name == null) {
      return Optional.empty();
    }
    String wanted = name.toLowerCase(Locale.ROOT);
    for (Algorithm algorithm : values()) {
      if (algorithm.configName.equals(wanted)) {
        return Optional.of(algorithm);
      }
    }
    return Optional.empty();
  }
}
