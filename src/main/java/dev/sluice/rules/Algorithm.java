package dev.sluice.rules;

import java.util.Locale;
import java.util.Optional;

/** How a limit counts hits. The configuration names are Sluice's extension to the rule format. */
public enum Algorithm {
  /** Counts hits per epoch-aligned window; the reference service's only algorithm. */
  FIXED_WINDOW("fixed_window"),
  /** Refills {@code requests_per_unit} tokens per window continuously, up to {@code burst}. */
  TOKEN_BUCKET("token_bucket");

  private final String configName;

  Algorithm(String configName) {
    this.configName = configName;
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
