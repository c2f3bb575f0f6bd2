package dev.sluice.config;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The values of declared {@link Setting}s, read once at startup; a setting not set here has its
 * declared default. Immutable. Tests build one with {@link #builder()} and set only what they test;
 * {@code cli} builds one from the command line and the environment.
 */
public final class SettingValues {
  private static final SettingValues DEFAULTS = new SettingValues(Map.of());

  private final Map<Setting<?>, Object> values;

  private SettingValues(Map<Setting<?>, Object> values) {
    this.values = values;
  }

  /** Every setting at its declared default. */
  public static SettingValues defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder(Map.of());
  }

  /** A builder that starts from these values. */
  public Builder toBuilder() {
    return new Builder(values);
  }

  /** The value of {@code setting}; its declared default (null if none) when not set. */
  @SuppressWarnings("unchecked")
  public <T> T get(Setting<T> setting) {
    return values.containsKey(setting) ? (T) values.get(setting) : setting.defaultValue();
  }

  @Override
  public String toString() {
    return "SettingValues" + values.size();
  }

  /** Collects values; not thread-safe. */
  public static final class Builder {
    private final Map<Setting<?>, Object> values;

    private Builder(Map<Setting<?>, Object> start) {
      this.values = new HashMap<>(start);
    }

    public <T> Builder set(Setting<T> setting, T value) {
      values.put(Objects.requireNonNull(setting, "setting"), value);
      return this;
    }

    /** Parses {@code text} as the command line would. */
    public Builder parse(Setting<?> setting, String text) {
      values.put(setting, setting.parse().apply(text));
      return this;
    }

    public SettingValues build() {
      return new SettingValues(new HashMap<>(values));
    }
  }
}
