package dev.sluice.cli;

import dev.sluice.config.Setting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The state of one {@link ReferenceEnvironment} while it is built, and the moves every area's
 * translation makes: copy a value ({@link #same}), read a Go boolean or duration, record a warning
 * or an error. A {@code SLUICE_*} value is set once, by the first reference variable that names it,
 * and never where the real environment sets it. Confined to the building thread.
 */
final class ReferenceTranslation {
  private static final Pattern GO_PART = Pattern.compile("(\\d+(?:\\.\\d*)?)(ns|us|µs|ms|s|m|h)");

  private final Map<String, String> env;
  final Map<String, String> overlay = new LinkedHashMap<>();
  final Map<String, String> sourceOf = new LinkedHashMap<>();
  final List<String> warnings = new ArrayList<>();
  final List<String> errors = new ArrayList<>();

  ReferenceTranslation(Map<String, String> env) {
    this.env = env;
  }

  String get(String name) {
    return env.get(name);
  }

  String getOrDefault(String name, String otherwise) {
    return env.getOrDefault(name, otherwise);
  }

  boolean has(String name) {
    return env.containsKey(name);
  }

  void warn(String warning) {
    warnings.add(warning);
  }

  void error(String error) {
    errors.add(error);
  }

  void same(String reference, Setting<?> sluice) {
    same(reference, sluice.env());
  }

  /** A Go boolean (1, t, TRUE, ...) as {@code true}/{@code false}. */
  void bool(String reference, Setting<?> sluice) {
    bool(reference, sluice.env());
  }

  void duration(String reference, Setting<?> sluice) {
    duration(reference, sluice.env());
  }

  /** Only where the real environment does not set the setting's twin: that one wins. */
  void put(String reference, Setting<?> sluice, String value) {
    put(reference, sluice.env(), value);
  }

  private void same(String reference, String sluice) {
    if (env.containsKey(reference)) {
      put(reference, sluice, env.get(reference));
    }
  }

  /** A Go boolean (1, t, TRUE, ...) as picocli's {@code true}/{@code false}. */
  private void bool(String reference, String sluice) {
    if (env.containsKey(reference)) {
      put(reference, sluice, String.valueOf(flag(reference)));
    }
  }

  private void duration(String reference, String sluice) {
    String value = env.get(reference);
    if (value == null) {
      return;
    }
    try {
      put(reference, sluice, goDuration(value).toMillis() + "ms");
    } catch (IllegalArgumentException e) {
      errors.add(reference + "=" + value + ": " + e.getMessage());
    }
  }

  /** Only where the real environment does not set the SLUICE_* twin: that one wins. */
  void put(String reference, String sluice, String value) {
    if (!env.containsKey(sluice) && !overlay.containsKey(sluice)) {
      overlay.put(sluice, value);
      sourceOf.put(sluice, reference);
    }
  }

  /** Go's strconv.ParseBool, which the reference's envconfig uses. */
  boolean flag(String name) {
    String value = env.getOrDefault(name, "false").trim();
    return Set.of("1", "t", "T", "true", "TRUE", "True").contains(value);
  }

  /** Go's time.ParseDuration: {@code 1h30m}, {@code 1.5s}, {@code 500ms}, {@code 0}. */
  static Duration goDuration(String text) {
    String value = text.trim();
    if (value.equals("0")) {
      return Duration.ZERO;
    }
    Matcher part = GO_PART.matcher(value);
    double nanos = 0;
    int end = 0;
    while (part.find() && part.start() == end) {
      double amount = Double.parseDouble(part.group(1));
      nanos +=
          amount
              * switch (part.group(2)) {
                case "ns" -> 1;
                case "us", "µs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                default -> 3600e9;
              };
      end = part.end();
    }
    if (end == 0 || end != value.length()) {
      throw new IllegalArgumentException("not a Go duration (e.g. 10s, 500ms, 1h30m)");
    }
    return Duration.ofNanos((long) nanos);
  }
}
