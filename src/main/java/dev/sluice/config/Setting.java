package dev.sluice.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One setting, declared once: its flag, its {@code SLUICE_*} environment twin, its default as it is
 * written on the command line, how its text is parsed and checked, and one line saying what it
 * does. The command line's option, the twin's lookup, the reference translation's target and the
 * settings table in {@code docs/settings.md} are all derived from it.
 *
 * @param flag the long option, {@code --near-limit-ratio}
 * @param env the environment twin, {@code SLUICE_NEAR_LIMIT_RATIO}; the flag wins over it
 * @param defaultText the default as command-line text, parsed like a given value; empty when the
 *     setting is unset by default (then {@link SettingValues#get} returns null, or the parse of
 *     {@code ""} for a text setting whose default is {@code ""})
 * @param parse text to value; throws {@link IllegalArgumentException} naming the bad value
 * @param description one line for {@code --help}, without the env twin and default (derived)
 * @param <T> the value's type
 */
public record Setting<T>(
    String flag,
    String env,
    Optional<String> defaultText,
    Function<String, T> parse,
    Shape shape,
    String description) {

  /** How the option takes its text: a value, a switch that may be given bare, or a list. */
  public enum Shape {
    VALUE,
    SWITCH,
    /** Repeatable, or comma-separated; {@link #parse} gets the whole comma-joined text. */
    LIST
  }

  public Setting {
    Objects.requireNonNull(parse, "parse");
    if (!flag.startsWith("--") || !env.startsWith("SLUICE_")) {
      throw new IllegalArgumentException("a setting is --flag and SLUICE_ENV: " + flag + " " + env);
    }
  }

  /** Its declared default, parsed; null when it has none. */
  public T defaultValue() {
    return defaultText.map(parse).orElse(null);
  }

  public static Setting<Boolean> bool(String flag, String env, boolean dflt, String description) {
    return new Setting<>(
        flag, env, Optional.of(String.valueOf(dflt)), SettingText::bool, Shape.SWITCH, description);
  }

  public static Setting<Integer> integer(String flag, String env, String dflt, String description) {
    return of(flag, env, dflt, SettingText::integer, description);
  }

  public static Setting<Long> longValue(String flag, String env, String dflt, String description) {
    return of(flag, env, dflt, SettingText::longValue, description);
  }

  public static Setting<Duration> duration(
      String flag, String env, String dflt, String description) {
    return of(flag, env, dflt, SettingText::duration, description);
  }

  public static Setting<String> text(String flag, String env, String dflt, String description) {
    return of(flag, env, dflt, Function.identity(), description);
  }

  /** A file; unset by default. */
  public static Setting<Path> path(String flag, String env, String description) {
    return new Setting<>(
        flag, env, Optional.empty(), text -> Path.of(text), Shape.VALUE, description);
  }

  /** Text, unset by default. */
  public static Setting<String> unsetText(String flag, String env, String description) {
    return new Setting<>(
        flag, env, Optional.empty(), Function.identity(), Shape.VALUE, description);
  }

  /** Comma-separated or repeated text values. */
  public static Setting<List<String>> list(String flag, String env, String description) {
    return new Setting<>(
        flag,
        env,
        Optional.of(""),
        text -> Arrays.stream(text.split(",")).filter(s -> !s.isEmpty()).toList(),
        Shape.LIST,
        description);
  }

  public static <T> Setting<T> of(
      String flag, String env, String dflt, Function<String, T> parse, String description) {
    return new Setting<>(flag, env, Optional.of(dflt), parse, Shape.VALUE, description);
  }

  /** A value with no default: null unless given. */
  public static <T> Setting<T> unset(
      String flag, String env, Function<String, T> parse, String description) {
    return new Setting<>(flag, env, Optional.empty(), parse, Shape.VALUE, description);
  }
}
