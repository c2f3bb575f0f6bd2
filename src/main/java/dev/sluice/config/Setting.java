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
 * @param shape how the option takes its text
 * @param description one line for {@code --help}, without the env twin and default (derived)
 * @param form the rarer parts: other names, whether the command needs it given
 * @param <T> the value's type
 */
public record Setting<T>(
    String flag,
    String env,
    Optional<String> defaultText,
    Function<String, T> parse,
    Shape shape,
    String description,
    Form form) {

  /** How the option takes its text: a value, a switch that may be given bare, or a list. */
  public enum Shape {
    VALUE,
    SWITCH,
    /** Repeatable, or comma-separated; {@link #parse} gets the whole comma-joined text. */
    LIST,
    /**
     * Repeatable, or {@code ;}-separated, each item whole (an item may hold commas, {@code
     * k=v,k=v}); {@link #parse} gets the whole {@code ;}-joined text.
     */
    GROUPS;

    /** What separates items in one text, for the list shapes. */
    public String separator() {
      return this == GROUPS ? ";" : ",";
    }
  }

  /** Whether a command refuses to run without the setting given (by flag or env twin). */
  public enum Need {
    OPTIONAL,
    REQUIRED
  }

  /**
   * The parts most settings do not use.
   *
   * @param aliases other flags that set it, e.g. {@code --timeout} beside {@code --deadline}
   * @param need whether it must be given
   * @param label the value's name in {@code --help}; empty for {@code <flag>}
   */
  public record Form(List<String> aliases, Need need, String label) {
    public static final Form PLAIN = new Form(List.of(), Need.OPTIONAL, "");

    public Form {
      aliases = List.copyOf(aliases);
      Objects.requireNonNull(need, "need");
      Objects.requireNonNull(label, "label");
    }
  }

  public Setting {
    Objects.requireNonNull(parse, "parse");
    Objects.requireNonNull(form, "form");
    if (!flag.startsWith("--") || !env.startsWith("SLUICE_")) {
      throw new IllegalArgumentException("a setting is --flag and SLUICE_ENV: " + flag + " " + env);
    }
  }

  /** This setting, also set by {@code alias}. */
  public Setting<T> alsoNamed(String alias) {
    List<String> aliases = new java.util.ArrayList<>(form.aliases());
    aliases.add(alias);
    return with(new Form(aliases, form.need(), form.label()));
  }

  /** This setting, which its command cannot run without. */
  public Setting<T> required() {
    return with(new Form(form.aliases(), Need.REQUIRED, form.label()));
  }

  /** This setting, its value named {@code label} in {@code --help}. */
  public Setting<T> labelled(String label) {
    return with(new Form(form.aliases(), form.need(), label));
  }

  /** This setting with {@code text} as its default, parsed like a given value. */
  public Setting<T> defaulting(String text) {
    return new Setting<>(flag, env, Optional.of(text), parse, shape, description, form);
  }

  private Setting<T> with(Form form) {
    return new Setting<>(flag, env, defaultText, parse, shape, description, form);
  }

  public boolean isRequired() {
    return form.need() == Need.REQUIRED;
  }

  /** Its declared default, parsed; null when it has none. */
  public T defaultValue() {
    return defaultText.map(parse).orElse(null);
  }

  public static Setting<Boolean> bool(String flag, String env, boolean dflt, String description) {
    return new Setting<>(
        flag,
        env,
        Optional.of(String.valueOf(dflt)),
        SettingText::bool,
        Shape.SWITCH,
        description,
        Form.PLAIN);
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
        flag, env, Optional.empty(), text -> Path.of(text), Shape.VALUE, description, Form.PLAIN);
  }

  /** Text, unset by default. */
  public static Setting<String> unsetText(String flag, String env, String description) {
    return new Setting<>(
        flag, env, Optional.empty(), Function.identity(), Shape.VALUE, description, Form.PLAIN);
  }

  /** Comma-separated or repeated text values. */
  public static Setting<List<String>> list(String flag, String env, String description) {
    return items(flag, env, Function.identity(), description);
  }

  /** Whole items, repeatable or {@code ;}-separated ({@link Shape#GROUPS}); empty by default. */
  public static Setting<List<String>> groups(String flag, String env, String description) {
    return new Setting<>(
        flag,
        env,
        Optional.of(""),
        splitting(Shape.GROUPS, Function.identity()),
        Shape.GROUPS,
        description,
        Form.PLAIN);
  }

  /**
   * Typed items, repeatable or comma-separated; empty by default (see {@link #defaulting}).
   *
   * @param item one item's text to its value
   */
  public static <E> Setting<List<E>> items(
      String flag, String env, Function<String, E> item, String description) {
    return new Setting<>(
        flag,
        env,
        Optional.of(""),
        splitting(Shape.LIST, item),
        Shape.LIST,
        description,
        Form.PLAIN);
  }

  /** The whole text split at {@code shape}'s separator, blank items left out, each parsed. */
  private static <E> Function<String, List<E>> splitting(Shape shape, Function<String, E> item) {
    return text ->
        Arrays.stream(text.split(shape.separator())).filter(s -> !s.isBlank()).map(item).toList();
  }

  public static <T> Setting<T> of(
      String flag, String env, String dflt, Function<String, T> parse, String description) {
    return new Setting<>(flag, env, Optional.of(dflt), parse, Shape.VALUE, description, Form.PLAIN);
  }

  /** A value with no default: null unless given. */
  public static <T> Setting<T> unset(
      String flag, String env, Function<String, T> parse, String description) {
    return new Setting<>(flag, env, Optional.empty(), parse, Shape.VALUE, description, Form.PLAIN);
  }
}
