package dev.sluice.cli;

import dev.sluice.config.TracingConfig;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * OpenTelemetry tracing flags. What they leave unset comes from the standard {@code OTEL_*}
 * variables (read by the SDK's autoconfiguration), then the SDK's defaults.
 */
final class TracingOptions {
  @Option(
      names = "--tracing",
      arity = "0..1",
      defaultValue = "${env:SLUICE_TRACING:-false}",
      description =
          "Export OpenTelemetry traces of the decisions (env SLUICE_TRACING, default ${DEFAULT-VALUE}).")
  boolean enabled;

  @Option(
      names = "--tracing-protocol",
      defaultValue = "${env:SLUICE_TRACING_PROTOCOL}",
      description =
          "OTLP transport: grpc or http (env SLUICE_TRACING_PROTOCOL; default OTEL_EXPORTER_OTLP_PROTOCOL, else grpc).")
  String protocol;

  @Option(
      names = "--tracing-endpoint",
      defaultValue = "${env:SLUICE_TRACING_ENDPOINT}",
      description =
          "OTLP endpoint URL (env SLUICE_TRACING_ENDPOINT; default OTEL_EXPORTER_OTLP_ENDPOINT, else the SDK's localhost).")
  String endpoint;

  @Option(
      names = "--tracing-service-name",
      defaultValue = "${env:SLUICE_TRACING_SERVICE_NAME}",
      description =
          "service.name (env SLUICE_TRACING_SERVICE_NAME; default OTEL_SERVICE_NAME, else sluice).")
  String serviceName;

  @Option(
      names = "--tracing-service-namespace",
      defaultValue = "${env:SLUICE_TRACING_SERVICE_NAMESPACE}",
      description = "service.namespace (env SLUICE_TRACING_SERVICE_NAMESPACE).")
  String serviceNamespace;

  @Option(
      names = "--tracing-service-instance-id",
      defaultValue = "${env:SLUICE_TRACING_SERVICE_INSTANCE_ID}",
      description = "service.instance.id (env SLUICE_TRACING_SERVICE_INSTANCE_ID).")
  String serviceInstanceId;

  @Option(
      names = "--tracing-sampling-rate",
      defaultValue = "${env:SLUICE_TRACING_SAMPLING_RATE}",
      description =
          "Share of new traces sampled, 0..1; a sampled parent is always followed (env SLUICE_TRACING_SAMPLING_RATE; default OTEL_TRACES_SAMPLER_ARG, else 1).")
  Double samplingRate;

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  TracingConfig toConfig() {
    return new TracingConfig(
        enabled,
        given(protocol),
        given(endpoint),
        given(serviceName),
        given(serviceNamespace),
        given(serviceInstanceId),
        Optional.ofNullable(samplingRate));
  }

  private static Optional<String> given(String value) {
    return Optional.ofNullable(value).map(String::trim).filter(v -> !v.isEmpty());
  }
}
