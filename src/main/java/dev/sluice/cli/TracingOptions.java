package dev.sluice.cli;

import dev.sluice.config.SettingValues;
import dev.sluice.config.TracingConfig;
import dev.sluice.config.TracingSettings;
import java.util.Optional;

/**
 * OpenTelemetry tracing flags. What they leave unset comes from the standard {@code OTEL_*}
 * variables (read by the SDK's autoconfiguration), then the SDK's defaults.
 */
final class TracingOptions {
  private final SettingValues values;

  TracingOptions(SettingValues values) {
    this.values = values;
  }

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  TracingConfig toConfig() {
    return new TracingConfig(
        values.get(TracingSettings.TRACING),
        given(values.get(TracingSettings.TRACING_PROTOCOL)),
        given(values.get(TracingSettings.TRACING_ENDPOINT)),
        given(values.get(TracingSettings.TRACING_SERVICE_NAME)),
        given(values.get(TracingSettings.TRACING_SERVICE_NAMESPACE)),
        given(values.get(TracingSettings.TRACING_SERVICE_INSTANCE_ID)),
        Optional.ofNullable(values.get(TracingSettings.TRACING_SAMPLING_RATE)));
  }

  private static Optional<String> given(String value) {
    return Optional.ofNullable(value).map(String::trim).filter(v -> !v.isEmpty());
  }
}
