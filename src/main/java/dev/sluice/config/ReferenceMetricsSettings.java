package dev.sluice.config;

import java.nio.file.Path;
import java.util.List;

/**
 * The reference service's Prometheus endpoint (its USE_PROMETHEUS, PROMETHEUS_ADDR,
 * PROMETHEUS_PATH, PROMETHEUS_MAPPER_YAML, PROMETHEUS_RESPONSE_TIME_AS_MILLISECONDS).
 */
public final class ReferenceMetricsSettings {
  public static final Setting<String> REFERENCE_METRICS_ADDR =
      Setting.text(
          "--reference-metrics-addr",
          "SLUICE_REFERENCE_METRICS_ADDR",
          "",
          "Serve the reference service's stat names (ratelimit_service_*) for Prometheus on this address, :port or host:port; off when empty; USE_PROMETHEUS=true sets it from PROMETHEUS_ADDR, default :9090");

  public static final Setting<String> REFERENCE_METRICS_PATH =
      Setting.text(
          "--reference-metrics-path",
          "SLUICE_REFERENCE_METRICS_PATH",
          "/metrics",
          "Path of that endpoint");

  public static final Setting<Path> REFERENCE_METRICS_MAPPER =
      Setting.path(
          "--reference-metrics-mapper",
          "SLUICE_REFERENCE_METRICS_MAPPER",
          "statsd_exporter mapping file from the reference's stat names to Prometheus names; the reference's built-in mappings when unset");

  public static final Setting<Boolean> REFERENCE_METRICS_RESPONSE_TIME_MILLIS =
      Setting.bool(
          "--reference-metrics-response-time-millis",
          "SLUICE_REFERENCE_METRICS_RESPONSE_TIME_MILLIS",
          false,
          "With the built-in mappings, keep ratelimit_service_response_time_seconds in milliseconds, as the reference's older releases did");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(
          REFERENCE_METRICS_ADDR,
          REFERENCE_METRICS_PATH,
          REFERENCE_METRICS_MAPPER,
          REFERENCE_METRICS_RESPONSE_TIME_MILLIS);

  private ReferenceMetricsSettings() {}
}
