package dev.sluice.rules;

import java.util.Locale;
import java.util.Optional;

/**
 * Where a limit's shared counter lives, as named in rule files ({@code rate_limit.consistency},
 * Sluice's extension). The rule model's view only: the name and which algorithms each mode counts;
 * how each mode counts is {@code dev.sluice.consistency}.
 */
public enum Consistency {
  /** One store call per request, counted in the shared store: today's behaviour. */
  EXACT("exact"),
  /**
   * Decided locally on the last known global count plus this instance's unsynced hits; the deltas
   * are pushed to the shared store every sync interval. May overshoot between syncs.
   */
  SYNCED("synced"),
  /**
   * Each of N live instances enforces {@code limit / N} alone; no store call on the request path.
   * Uneven routing refuses on hot instances while cold ones hold budget.
   */
  SPLIT("split");

  /** Every spelling, for error messages. */
  public static final String CONFIG_NAMES = "exact, synced or split";

  private final String configName;

  Consistency(String configName) {
    this.configName = configName;
  }

  /**
   * Whether this mode can count {@code algorithm}. Synced counting adds deltas to a window's key
   * with INCRBY, which only a fixed window's counter is: a bucket's state and the sliding window's
   * estimate are read and written by one script on Redis's clock.
   */
  public boolean supports(Algorithm algorithm) {
    return this != SYNCED || algorithm.countsByAddition();
  }

  /** The spelling used in rule files and flags. */
  public String configName() {
    return configName;
  }

  /** Parses one of {@link #CONFIG_NAMES} (case-insensitive); empty if unknown. */
  public static Optional<Consistency> parse(String name) {
    if (name == null) {
      return Optional.empty();
    }
    String wanted = name.toLowerCase(Locale.ROOT);
    for (Consistency consistency : values()) {
      if (consistency.configName.equals(wanted)) {
        return Optional.of(consistency);
      }
    }
    return Optional.empty();
  }
}
