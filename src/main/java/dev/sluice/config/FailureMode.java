package dev.sluice.config;

import java.util.Locale;

/** What to answer for counted descriptors when the store cannot answer. */
public enum FailureMode {
  /**
   * gRPC UNAVAILABLE, so Envoy's own {@code failure_mode_deny} decides (Envoy allows by default).
   */
  ERROR,
  /** OK, as if no rule matched. */
  ALLOW,
  /** OVER_LIMIT for every counted descriptor (shadow-mode rules still answer OK). */
  DENY,
  /** Count in this process's memory, each instance enforcing its share of the limit. */
  LOCAL;

  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code error}, {@code allow}, {@code deny} or {@code local}, case-insensitive. */
  public static FailureMode parse(String name) {
    return ConfigNames.parse(values(), FailureMode::configName, name, "failure mode");
  }
}
