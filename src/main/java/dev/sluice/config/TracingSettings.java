package dev.sluice.config;

import java.util.List;

/**
 * OpenTelemetry tracing; what these leave unset comes from the standard OTEL_* variables, then the
 * SDK's defaults.
 */
public final class TracingSettings {
  public static final Setting<Boolean> TRACING =
      Setting.bool(
          "--tracing", "SLUICE_TRACING", false, "Export OpenTelemetry traces of the decisions");

  public static final Setting<String> TRACING_PROTOCOL =
      Setting.unsetText(
          "--tracing-protocol",
          "SLUICE_TRACING_PROTOCOL",
          "OTLP transport: grpc or http; unset: OTEL_EXPORTER_OTLP_PROTOCOL, else grpc");

  public static final Setting<String> TRACING_ENDPOINT =
      Setting.unsetText(
          "--tracing-endpoint",
          "SLUICE_TRACING_ENDPOINT",
          "OTLP endpoint URL; unset: OTEL_EXPORTER_OTLP_ENDPOINT, else the SDK's localhost");

  public static final Setting<String> TRACING_SERVICE_NAME =
      Setting.unsetText(
          "--tracing-service-name",
          "SLUICE_TRACING_SERVICE_NAME",
          "service.name; unset: OTEL_SERVICE_NAME, else sluice");

  public static final Setting<String> TRACING_SERVICE_NAMESPACE =
      Setting.unsetText(
          "--tracing-service-namespace", "SLUICE_TRACING_SERVICE_NAMESPACE", "service.namespace");

  public static final Setting<String> TRACING_SERVICE_INSTANCE_ID =
      Setting.unsetText(
          "--tracing-service-instance-id",
          "SLUICE_TRACING_SERVICE_INSTANCE_ID",
          "service.instance.id");

  public static final Setting<Double> TRACING_SAMPLING_RATE =
      Setting.unset(
          "--tracing-sampling-rate",
          "SLUICE_TRACING_SAMPLING_RATE",
          SettingText::doubleValue,
          "Share of new traces sampled, 0..1; a sampled parent is always followed; unset: OTEL_TRACES_SAMPLER_ARG, else 1");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(
          TRACING,
          TRACING_PROTOCOL,
          TRACING_ENDPOINT,
          TRACING_SERVICE_NAME,
          TRACING_SERVICE_NAMESPACE,
          TRACING_SERVICE_INSTANCE_ID,
          TRACING_SAMPLING_RATE);

  private TracingSettings() {}
}
