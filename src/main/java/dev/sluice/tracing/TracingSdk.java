package dev.sluice.tracing;

import dev.sluice.config.TracingConfig;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import java.util.HashMap;
import java.util.Map;

/**
 * Builds the OpenTelemetry SDK with its autoconfiguration, so every standard {@code OTEL_*}
 * variable (endpoint, headers, certificates, timeouts, resource attributes) works as documented.
 * Precedence: Sluice's flags, then {@code OTEL_*} variables and system properties, then Sluice's
 * defaults below, then the SDK's. Traces only: metrics and logs stay with Prometheus and Logback.
 */
final class TracingSdk {
  private TracingSdk() {}

  static OpenTelemetrySdk build(TracingConfig config) {
    return AutoConfiguredOpenTelemetrySdk.builder()
        .addPropertiesSupplier(TracingSdk::defaults)
        .addPropertiesCustomizer(ignored -> flags(config))
        .addResourceCustomizer((resource, ignored) -> resource.merge(resource(config)))
        .build()
        .getOpenTelemetrySdk();
  }

  /** Used unless an {@code OTEL_*} variable says otherwise. */
  private static Map<String, String> defaults() {
    return Map.of(
        "otel.service.name", "sluice",
        "otel.traces.exporter", "otlp",
        "otel.metrics.exporter", "none",
        "otel.logs.exporter", "none",
        // Envoy sends B3 unless told otherwise; W3C is what everything else sends.
        "otel.propagators", "tracecontext,baggage,b3multi",
        "otel.traces.sampler", "parentbased_traceidratio",
        "otel.traces.sampler.arg", "1.0");
  }

  /** What the flags set wins over the environment. */
  private static Map<String, String> flags(TracingConfig config) {
    Map<String, String> flags = new HashMap<>();
    config
        .protocol()
        .ifPresent(
            p -> flags.put("otel.exporter.otlp.protocol", p.equals("http") ? "http/protobuf" : p));
    config.endpoint().ifPresent(e -> flags.put("otel.exporter.otlp.endpoint", e));
    config.serviceName().ifPresent(n -> flags.put("otel.service.name", n));
    config
        .samplingRate()
        .ifPresent(
            rate -> {
              flags.put("otel.traces.sampler", "parentbased_traceidratio");
              flags.put("otel.traces.sampler.arg", Double.toString(rate));
            });
    return flags;
  }

  private static Resource resource(TracingConfig config) {
    AttributesBuilder attributes = Attributes.builder();
    config.serviceNamespace().ifPresent(ns -> attributes.put("service.namespace", ns));
    config.serviceInstanceId().ifPresent(id -> attributes.put("service.instance.id", id));
    return Resource.create(attributes.build());
  }
}
