package dev.sluice.cli;

import dev.sluice.config.AccessSettings;
import dev.sluice.config.CapacitySettings;
import dev.sluice.config.CaptureSettings;
import dev.sluice.config.LimiterSettings;
import dev.sluice.config.OverloadSettings;
import dev.sluice.config.RedisSettings;
import dev.sluice.config.ReferenceMetricsSettings;
import dev.sluice.config.ResponseSettings;
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
 * SettingValues}. Each option's default is {@code ${env:SLUICE_X:-default}}, so the flag wins over
 * its env twin, which wins over the declared default; {@code --help} shows both.
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
              ReferenceMetricsSettings.ALL)
          .flatMap(List::stream)
          .toList();

  private SettingOptions() {}

  /** Adds {@code serve}'s settings to its command. */
  public static final class Serve implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec command) {
      SERVE.forEach(setting -> command.addOption(option(setting)));
      return command;
    }
  }

  /** Adds the rule settings to {@code check}, {@code explain} and {@code replay}. */
  public static final class Rules implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec command) {
      RulesSettings.ALL.forEach(setting -> command.addOption(option(setting)));
      return command;
    }
  }

  /**
   * Adds the rule settings and where the counters are ({@code --store}, {@code --redis-url}, {@code
   * --redis-key-prefix}) to {@code explain}, so it reads what {@code serve} reads.
   */
  public static final class Explain implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec command) {
      Stream.concat(
              RulesSettings.ALL.stream(),
              Stream.of(
                  ServeSettings.STORE, RedisSettings.REDIS_URL, RedisSettings.REDIS_KEY_PREFIX))
          .forEach(setting -> command.addOption(option(setting)));
      return command;
    }
  }

  /** The option of one setting; it carries the setting as its user object. */
  static OptionSpec option(Setting<?> setting) {
    OptionSpec.Builder option =
        OptionSpec.builder(setting.flag())
            .userObject(setting)
            .paramLabel("<" + setting.flag().substring(2) + ">")
            .defaultValue(
                setting
                    .defaultText()
                    .map(text -> "${env:" + setting.env() + ":-" + text + "}")
                    .orElse("${env:" + setting.env() + "}"))
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
      case LIST -> option.type(List.class).auxiliaryTypes(String.class).splitRegex(",").build();
    };
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
      setting(option).ifPresent(setting -> values.set((Setting) setting, option.getValue()));
    }
    return values.build();
  }
}
