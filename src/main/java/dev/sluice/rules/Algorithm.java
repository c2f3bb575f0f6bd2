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
  FIXED_WINDOW("fixed_window", false, "window"),
  /** Refills {@code requests_per_unit} tokens per window continuously, up to {@code burst}. */
  TOKEN_BUCKET("token_bucket", true, "bucket"),
  /**
   * Cloudflare's two-window estimate of a rolling window: the previous window's count, weighted by
   * how much of it still overlaps the rolling window, plus the current window's count.
   */
  SLIDING_WINDOW("sliding_window", false, "window");

  /** Every spelling, for error messages. */
  public static final String CONFIG_NAMES = "fixed_window, token_bucket or sliding_window";

  private final String configName;
  private final boolean takesBurst;
  private final String stateNoun;

  Algorithm(String configName, boolean takesBurst, String stateNoun) {
    this.configName = configName;
    this.takesBurst = takesBurst;
    this.stateNoun = stateNoun;
  }

  /**
   * Whether this is envoyproxy/ratelimit's own algorithm, which its output formats (such as {@code
   * /rlconfig}) never name; ours are named there so the reference's readers see the difference.
   */
  public boolean isReferenceAlgorithm() {
    return this == FIXED_WINDOW;
  }

  /**
   * Whether a limit's whole state is one counter per window that hits are added to (Redis {@code
   * INCRBY}), so deltas counted elsewhere can be added later. A bucket's state and the sliding
   * window's estimate are read and written together on Redis's clock instead.
   */
  public boolean countsByAddition() {
    return this == FIXED_WINDOW;
  }

  /** What one counter of this algorithm is called in explanations: "window" or "bucket". */
  public String stateNoun() {
    return stateNoun;
  }

  /**
   * Whether a limit may set {@code burst} (a capacity other than {@code requests_per_unit}); when
   * not, its burst equals its rate.
   */
  public boolean takesBurst() {
    return takesBurst;
  }

  /**
   * Whether this algorithm counts in windows of {@code unit}. A sliding window keeps two windows
   * and interpolates over one, which the issue asks for only up to a day; the others take any.
   */
  public boolean allows(Unit unit) {
    return this != SLIDING_WINDOW || unit.compareTo(Unit.DAY) <= 0;
  }

  /**
   * Whether this algorithm counts over {@code window}: a sliding window over epoch-aligned windows
   * of at most a day, whatever the unit (it rolls, so it has no calendar windows); the others over
   * any.
   */
  public boolean allows(Window window) {
    return this != SLIDING_WINDOW
        || (window instanceof Window.Fixed fixed && fixed.lengthSeconds() <= Unit.DAY.seconds());
  }

  /** The spelling used in rule files and flags. */
  public String configName() {
    return configName;
  }

  /** Parses one of {@link #CONFIG_NAMES} (case-insensitive); empty if unknown. */
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
