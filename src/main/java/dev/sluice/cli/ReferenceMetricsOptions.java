package dev.sluice.cli;

import dev.sluice.config.ReferenceMetricsConfig;
import dev.sluice.config.ReferenceMetricsSettings;
import dev.sluice.config.SettingValues;
import java.util.Optional;

/**
 * The reference service's Prometheus endpoint ({@code --reference-metrics-*}); the reference's
 * {@code USE_PROMETHEUS}, {@code PROMETHEUS_ADDR}, {@code PROMETHEUS_PATH}, {@code
 * PROMETHEUS_MAPPER_YAML} and {@code PROMETHEUS_RESPONSE_TIME_AS_MILLISECONDS} set them.
 */
final class ReferenceMetricsOptions {
  private final SettingValues values;

  ReferenceMetricsOptions(SettingValues values) {
    this.values = values;
  }

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  ReferenceMetricsConfig toConfig() {
    return new ReferenceMetricsConfig(
        ReferenceMetricsConfig.parseAddress(
            values.get(ReferenceMetricsSettings.REFERENCE_METRICS_ADDR)),
        values.get(ReferenceMetricsSettings.REFERENCE_METRICS_PATH),
        Optional.ofNullable(values.get(ReferenceMetricsSettings.REFERENCE_METRICS_MAPPER))
            .filter(file -> !file.toString().isBlank()),
        values.get(ReferenceMetricsSettings.REFERENCE_METRICS_RESPONSE_TIME_MILLIS));
  }
}
