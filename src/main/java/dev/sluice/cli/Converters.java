package dev.sluice.cli;

import dev.sluice.bench.KeyMode;
import dev.sluice.bench.RequestTemplate;
import dev.sluice.bench.Target;
import dev.sluice.config.FailureMode;
import dev.sluice.config.GrpcTransportConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.StoreKind;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.Entry;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Flag value parsers with messages that name the bad value. */
final class Converters {
  private Converters() {}

  static final class AlgorithmConverter implements ITypeConverter<Algorithm> {
    @Override
    public Algorithm convert(String value) {
      return Algorithm.parse(value)
          .orElseThrow(
              () ->
                  new TypeConversionException(
                      "unknown algorithm '" + value + "'; expected " + Algorithm.CONFIG_NAMES));
    }
  }

  static final class ConsistencyConverter implements ITypeConverter<Consistency> {
    @Override
    public Consistency convert(String value) {
      return Consistency.parse(value)
          .orElseThrow(
              () ->
                  new TypeConversionException(
                      "unknown consistency '" + value + "'; expected " + Consistency.CONFIG_NAMES));
    }
  }

  static final class FailureModeConverter implements ITypeConverter<FailureMode> {
    @Override
    public FailureMode convert(String value) {
      try {
        return FailureMode.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class GrpcTransportConverter
      implements ITypeConverter<GrpcTransportConfig.Transport> {
    @Override
    public GrpcTransportConfig.Transport convert(String value) {
      try {
        return GrpcTransportConfig.Transport.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class RlsHandlersConverter
      implements ITypeConverter<GrpcTransportConfig.RlsHandlers> {
    @Override
    public GrpcTransportConfig.RlsHandlers convert(String value) {
      try {
        return GrpcTransportConfig.RlsHandlers.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** A positive count, or {@code auto}: {@link GrpcTransportConfig#defaultEventLoops}. */
  static final class EventLoopsConverter implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      if (value.trim().equalsIgnoreCase("auto")) {
        return GrpcTransportConfig.defaultEventLoops(Runtime.getRuntime().availableProcessors());
      }
      try {
        int loops = Integer.parseInt(value.trim());
        if (loops >= 1) {
          return loops;
        }
      } catch (NumberFormatException e) {
        // named below
      }
      throw new TypeConversionException(
          "invalid grpc event loops '" + value + "'; expected a number >= 1 or auto");
    }
  }

  static final class StoreKindConverter implements ITypeConverter<StoreKind> {
    @Override
    public StoreKind convert(String value) {
      try {
        return StoreKind.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** Parses the URL once, completely: what passes here is what the Redis store connects to. */
  static final class RedisUrlConverter implements ITypeConverter<RedisEndpoint> {
    @Override
    public RedisEndpoint convert(String value) {
      try {
        return RedisEndpoint.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** A positive thread count, or {@code auto}: {@link ServerConfig#defaultGrpcThreads}. */
  static final class GrpcThreadsConverter implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      if (value.trim().equalsIgnoreCase("auto")) {
        return ServerConfig.defaultGrpcThreads(Runtime.getRuntime().availableProcessors());
      }
      try {
        int threads = Integer.parseInt(value.trim());
        if (threads >= 1) {
          return threads;
        }
      } catch (NumberFormatException e) {
        // named below
      }
      throw new TypeConversionException(
          "invalid grpc threads '" + value + "'; expected a number >= 1 or auto");
    }
  }

  /**
   * Durations as {@code 10ms}, {@code 1s}, {@code 2m}, {@code 500us}, or ISO-8601 ({@code PT1S}).
   */
  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
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
        throw new TypeConversionException(
            "invalid duration '" + value + "'; expected e.g. 10ms, 1s, 2m");
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
