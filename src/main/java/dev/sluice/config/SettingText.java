package dev.sluice.config;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import java.time.Duration;
import java.util.Locale;

/** Parsers of settings' text; each throws {@link IllegalArgumentException} naming the value. */
public final class SettingText {
  private SettingText() {}

  /** {@code true} or {@code false}, any case; anything else is an error, not false. */
  public static Boolean bool(String text) {
    String value = text.trim().toLowerCase(Locale.ROOT);
    if (value.equals("true") || value.equals("false")) {
      return Boolean.valueOf(value);
    }
    throw new IllegalArgumentException("'" + text + "' is not a boolean");
  }

  public static Integer integer(String text) {
    try {
      return Integer.valueOf(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not an int");
    }
  }

  public static Long longValue(String text) {
    try {
      return Long.valueOf(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a long");
    }
  }

  public static Float floatValue(String text) {
    try {
      return Float.valueOf(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a float");
    }
  }

  public static Double doubleValue(String text) {
    try {
      return Double.valueOf(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a double");
    }
  }

  /** A count of at least 1, or {@code auto}: {@code auto} per core of this machine. */
  public static int countOrAuto(String what, String text, int auto) {
    if (text.trim().equalsIgnoreCase("auto")) {
      return auto;
    }
    try {
      int count = Integer.parseInt(text.trim());
      if (count >= 1) {
        return count;
      }
    } catch (NumberFormatException e) {
      // named below
    }
    throw new IllegalArgumentException(
        "invalid " + what + " '" + text + "'; expected a number >= 1 or auto");
  }

  public static Algorithm algorithm(String text) {
    return Algorithm.parse(text)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown algorithm '" + text + "'; expected " + Algorithm.CONFIG_NAMES));
  }

  public static Consistency consistency(String text) {
    return Consistency.parse(text)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown consistency '" + text + "'; expected " + Consistency.CONFIG_NAMES));
  }

  /**
   * Durations as {@code 10ms}, {@code 1s}, {@code 2m}, {@code 500us}, or ISO-8601 ({@code PT1S}).
   */
  public static Duration duration(String value) {
    String text = value.trim().toLowerCase(Locale.ROOT);
    try {
      if (text.startsWith("pt")) {
        return Duration.parse(value.trim());
      }
      if (text.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
      }
      if (text.endsWith("us")) {
        return Duration.ofNanos(1000 * Long.parseLong(text.substring(0, text.length() - 2)));
      }
      long amount = Long.parseLong(text.substring(0, text.length() - 1));
      return switch (text.charAt(text.length() - 1)) {
        case 's' -> Duration.ofSeconds(amount);
        case 'm' -> Duration.ofMinutes(amount);
        case 'h' -> Duration.ofHours(amount);
        default -> throw new NumberFormatException();
      };
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "invalid duration '" + value + "'; expected e.g. 10ms, 1s, 2m");
    }
  }
}
