package dev.sluice.cli;

import dev.sluice.bench.KeyMode;
import dev.sluice.bench.RequestTemplate;
import dev.sluice.bench.Target;
import dev.sluice.config.SettingText;
import dev.sluice.rules.Entry;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Flag value parsers with messages that name the bad value. */
final class Converters {
  private Converters() {}

  /**
   * Durations as {@code 10ms}, {@code 1s}, {@code 2m}, {@code 500us}, or ISO-8601 ({@code PT1S}).
   */
  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return SettingText.duration(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class TargetConverter implements ITypeConverter<Target> {
    @Override
    public Target convert(String value) {
      try {
        return Target.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class KeyModeConverter implements ITypeConverter<KeyMode> {
    @Override
    public KeyMode convert(String value) {
      try {
        return KeyMode.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class EntryConverter implements ITypeConverter<Entry> {
    @Override
    public Entry convert(String value) {
      try {
        return RequestTemplate.parseEntry(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
