package dev.sluice.config;

import java.util.Objects;
import java.util.Optional;

/**
 * OpenTelemetry traces of the decisions. Unset fields fall back to the standard {@code OTEL_*}
 * variables, then to the SDK's defaults.
 *
 * @param enabled off: no span is ever made (a no-op tracer, nothing on the hot path)
 * @param protocol {@code grpc} or {@code http} (OTLP/HTTP protobuf)
 * @param endpoint OTLP endpoint, e.g. {@code http://collector:4317}
 * @param serviceName resource {@code service.name}
 * @param serviceNamespace resource {@code service.namespace}
 * @param serviceInstanceId resource {@code service.instance.id}
 * @param samplingRate share of new traces sampled, 0..1; a parent's decision is followed
 */
public record TracingConfig(
    boolean enabled,
    Optional<String> protocol,
    Optional<String> endpoint,
    Optional<String> serviceName,
    Optional<String> serviceNamespace,
    Optional<String> serviceInstanceId,
    Optional<Double> samplingRate) {

  public static final TracingConfig OFF =
      new TracingConfig(
          false,
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty());

  public TracingConfig {
    Objects.requireNonNull(protocol, "protocol");
    protocol.ifPresent(
        p -> {
          if (!p.equals("grpc") && !p.equals("http")) {
            throw new IllegalArgumentException("tracing protocol must be grpc or http: " + p);
          }
        });
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(serviceName, "serviceName");
    Objects.requireNonNull(serviceNamespace, "serviceNamespace");
    Objects.requireNonNull(serviceInstanceId, "serviceInstanceId");
    Objects.requireNonNull(samplingRate, "samplingRate");
    samplingRate.ifPresent(
        rate -> {
          if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("tracing sampling rate must be 0..1: " + rate);
          }
        });
  }

  /** Tracing on, exporting over OTLP gRPC to {@code endpoint}, every trace sampled: for tests. */
  public static TracingConfig grpc(String endpoint) {
    return new TracingConfig(
        true,
        Optional.of("grpc"),
        Optional.of(endpoint),
        Optional.of("sluice"),
        Optional.empty(),
        Optional.empty(),
        Optional.of(1.0));
  }

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  public static TracingConfig from(SettingValues values) {
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
