package dev.sluice.rules;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * A rate-limit window length. Windows are aligned to the Unix epoch, so {@code MONTH} is 30 days
 * and {@code YEAR} 365 days, exactly as in envoyproxy/ratelimit.
 */
public enum Unit {
  SECOND(1),
  MINUTE(60),
  HOUR(3_600),
  DAY(86_400),
  WEEK(604_800),
  MONTH(2_592_000),
  YEAR(31_536_000);

  private final long seconds;
  private final Duration window;

  Unit(long seconds) {
    this.seconds = seconds;
    this.window = Duration.ofSeconds(seconds);
  }

  public long seconds() {
    return seconds;
  }

  public long millis() {
    return seconds * 1000;
  }

  public Duration window() {
    return window;
  }

  /**
   * Parses a unit name case-insensitively ({@code "minute"}, {@code "MINUTE"}); empty if unknown.
   */
  public static Optional<Unit> parse(String name) {
    if (name == null) {
      return Optional.empty();
    }
    for (Unit unit : values()) {
      if (unit.name().equals(name.toUpperCase(Locale.ROOT))) {
        return Optional.of(unit);
      }
    }
    return Optional.empty();
  }
}
