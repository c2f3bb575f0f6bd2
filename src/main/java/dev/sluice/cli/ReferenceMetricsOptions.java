package dev.sluice.cli;

import dev.sluice.config.ReferenceMetricsConfig;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The reference service's Prometheus endpoint ({@code --reference-metrics-*}); the reference's
 * {@code USE_PROMETHEUS}, {@code PROMETHEUS_ADDR}, {@code PROMETHEUS_PATH}, {@code
 * PROMETHEUS_MAPPER_YAML} and {@code PROMETHEUS_RESPONSE_TIME_AS_MILLISECONDS} set them.
 */
final class ReferenceMetricsOptions {
  @Option(
      names = "--reference-metrics-addr",
      defaultValue = "${env:SLUICE_REFERENCE_METRICS_ADDR:-}",
      description =
          "Serve the reference service's stat names (ratelimit_service_*) for Prometheus on this"
              + " address, :port or host:port; off when empty (env SLUICE_REFERENCE_METRICS_ADDR;"
              + " USE_PROMETHEUS=true sets PROMETHEUS_ADDR, default :9090).")
  String address;

  @Option(
      names = "--reference-metrics-path",
      defaultValue = "${env:SLUICE_REFERENCE_METRICS_PATH:-/metrics}",
      description =
          "Path of that endpoint (env SLUICE_REFERENCE_METRICS_PATH, default ${DEFAULT-VALUE}).")
  String path;

  @Option(
      names = "--reference-metrics-mapper",
      defaultValue = "${env:SLUICE_REFERENCE_METRICS_MAPPER}",
      description =
          "statsd_exporter mapping file from the reference's stat names to Prometheus names; the"
              + " reference's built-in mappings when unset (env SLUICE_REFERENCE_METRICS_MAPPER).")
  Path mapper;

  @Option(
      names = "--reference-metrics-response-time-millis",
      arity = "0..1",
      defaultValue = "${env:SLUICE_REFERENCE_METRICS_RESPONSE_TIME_MILLIS:-false}",
      description =
          "With the built-in mappings, keep ratelimit_service_response_time_seconds in"
              + " milliseconds, as the reference's older releases did (env"
              + " SLUICE_REFERENCE_METRICS_RESPONSE_TIME_MILLIS, default ${DEFAULT-VALUE}).")
  boolean responseTimeInMillis;

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  ReferenceMetricsConfig toConfig() {
    return new ReferenceMetricsConfig(
        ReferenceMetricsConfig.parseAddress(address),
        path,
        Optional.ofNullable(mapper).filter(file -> !file.toString().isBlank()),
        responseTimeInMillis);
  }
}
