package dev.sluice.cli;

import dev.sluice.config.AccessSettings;
import dev.sluice.config.CapacitySettings;
import dev.sluice.config.CaptureSettings;
import dev.sluice.config.LimiterSettings;
import dev.sluice.config.OverloadSettings;
import dev.sluice.config.RedisSettings;
import dev.sluice.config.ReferenceMetricsSettings;
import dev.sluice.config.ResponseSettings;
import dev.sluice.config.RlqsSettings;
import dev.sluice.config.RulesSettings;
import dev.sluice.config.ServeSettings;
import dev.sluice.config.ServerSettings;
import dev.sluice.config.Setting;
import dev.sluice.config.SettingValues;
import dev.sluice.config.TracingSettings;
import dev.sluice.config.XdsSettings;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.TypeConversionException;

/**
 * Derives picocli options from {@link Setting} declarations, and reads their values back as {@link
 * SettingValues}. The command line's default value provider ({@link ReferenceEnvironment}) answers
 * each option's env twin before its declared default, so the flag wins over the twin, which wins
 * over the default; {@code --help} shows both.
 */
final class SettingOptions {
  /** What {@code serve} reads, in its {@code --help} order. */
  static final List<Setting<?>> SERVE =
      Stream.of(
              RulesSettings.ALL,
              ServeSettings.ALL,
              RedisSettings.ALL,
              OverloadSettings.ALL,
              LimiterSettings.ALL,
              ResponseSettings.ALL,
              ServerSettings.ALL,
              AccessSettings.ALL,
              XdsSettings.ALL,
              TracingSettings.ALL,
              CaptureSettings.ALL,
              CapacitySettings.ALL,
              ReferenceMetricsSettings.ALL,
              RlqsSettings.ALL)
          .flatMap(List::stream)
          .toList();

  private SettingOptions() {}

  /** Adds a command's declared settings to it, in order; one subclass per command. */
  abstract static class Adding implements IModelTransformer {
    private final List<Setting<?>> settings;

    Adding(List<Setting<?>> settings) {
      this.settings = settings;
    }

    @Override
    public CommandSpec transform(CommandSpec command) {
      settings.forEach(setting -> command.addOption(option(setting)));
      return command;
    }
  }

  /** Adds {@code serve}'s settings to its command. */
  public static final class Serve extends Adding {
    public Serve() {
      super(SERVE);
    }
  }

  /** The rule settings, then {@code check}'s own. */
  public static final class Check extends Adding {
    public Check() {
      super(concat(RulesSettings.ALL, ToolSettings.CHECK));
    }
  }

  /** The rule settings, then {@code replay}'s own. */
  public static final class Replay extends Adding {
    public Replay() {
      super(concat(RulesSettings.ALL, ToolSettings.REPLAY));
    }
  }

  /**
   * The rule settings, where the counters are ({@code --store}, {@code --redis-url}, {@code
   * --redis-key-prefix}), so it reads what {@code serve} reads, then {@code explain}'s own.
   */
  public static final class Explain extends Adding {
    public Explain() {
      super(
          concat(
              RulesSettings.ALL,
              List.of(ServeSettings.STORE, RedisSettings.REDIS_URL, RedisSettings.REDIS_KEY_PREFIX),
              ToolSettings.EXPLAIN));
    }
  }

  /** {@code call}'s settings. */
  public static final class Call extends Adding {
    public Call() {
      super(ToolSettings.CALL);
    }
  }

  /** {@code bench}'s settings, RLS and RLQS. */
  public static final class Bench extends Adding {
    public Bench() {
      super(concat(BenchSettings.BENCH, BenchSettings.RLQS));
    }
  }

  /** {@code bench-server}'s settings. */
  public static final class BenchServer extends Adding {
    public BenchServer() {
      super(BenchSettings.SERVER);
    }
  }

  @SafeVarargs
  private static List<Setting<?>> concat(List<Setting<?>>... lists) {
    return Stream.of(lists).flatMap(List::stream).toList();
  }

  /** The option of one setting; it carries the setting as its user object. */
  static OptionSpec option(Setting<?> setting) {
    String label = setting.form().label();
    OptionSpec.Builder option =
        OptionSpec.builder(names(setting))
            .userObject(setting)
            .paramLabel(label.isEmpty() ? "<" + setting.flag().substring(2) + ">" : label)
            .required(setting.isRequired())
            // The env twin is answered by the command line's default value provider
            // (ReferenceEnvironment), so a test can hand in a whole environment.
            .defaultValue(setting.isRequired() ? null : setting.defaultText().orElse(null))
            .description(helpLine(setting));
    return switch (setting.shape()) {
      case VALUE -> option.type(Object.class).converters(text -> convert(setting, text)).build();
      case SWITCH ->
          option
              .type(Boolean.class)
              .arity("0..1")
              .fallbackValue("true")
              .converters(text -> convert(setting, text))
              .build();
      case LIST, GROUPS ->
          option
              .type(List.class)
              .auxiliaryTypes(String.class)
              .splitRegex(setting.shape().separator())
              .converters(text -> checkItem(setting, text))
              .build();
    };
  }

  private static String[] names(Setting<?> setting) {
    return Stream.concat(Stream.of(setting.flag()), setting.form().aliases().stream())
        .toArray(String[]::new);
  }

  /** Checks one item of a list as its setting parses it, so a bad item is a usage error. */
  private static String checkItem(Setting<?> setting, String text) {
    convert(setting, text);
    return text;
  }

  /** The description, the env twin and the default, as {@code --help} prints them. */
  static String helpLine(Setting<?> setting) {
    String shown =
        setting.defaultText().filter(text -> !text.isEmpty()).isPresent()
            ? "${DEFAULT-VALUE}"
            : "none";
    return setting.description() + " (env " + setting.env() + ", default " + shown + ").";
  }

  private static Object convert(Setting<?> setting, String text) {
    try {
      return setting.parse().apply(text);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }

  /** The setting an option was derived from, if it was. */
  static Optional<Setting<?>> setting(ArgSpec arg) {
    return arg.userObject() instanceof Setting<?> setting ? Optional.of(setting) : Optional.empty();
  }

  /** The parsed values of every setting-derived option of {@code command}. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static SettingValues values(CommandSpec command) {
    SettingValues.Builder values = SettingValues.builder();
    for (OptionSpec option : command.options()) {
      setting(option).ifPresent(setting -> values.set((Setting) setting, valueOf(setting, option)));
    }
    return values.build();
  }

  /** A list option's items joined and parsed whole, as its setting declares; else the value. */
  private static Object valueOf(Setting<?> setting, OptionSpec option) {
    if (option.getValue() instanceof List<?> items) {
      return setting
          .parse()
          .apply(
              String.join(
                  setting.shape().separator(), items.stream().map(String::valueOf).toList()));
    }
    return option.getValue();
  }
}
