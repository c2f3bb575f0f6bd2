package dev.sluice.cli;

import dev.sluice.config.ReferenceMetricsSettings;
import dev.sluice.config.TracingSettings;
import dev.sluice.config.XdsSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The reference's logging, metrics, xDS and tracing variables as {@code SLUICE_*} values (its
 * Prometheus endpoint becomes {@code --reference-metrics-*}; statsd settings Sluice has no use for
 * become warnings); part of {@link ReferenceEnvironment}.
 */
final class ReferenceObservabilityVariables {
  private ReferenceObservabilityVariables() {}

  static void observability(ReferenceTranslation t) {
    String level = t.get("LOG_LEVEL");
    if (level != null) {
      t.put("LOG_LEVEL", "SLUICE_LOG_LEVEL", logbackLevel(t, level));
    }
    String format = t.get("LOG_FORMAT");
    if (format != null) {
      if (format.equalsIgnoreCase("json") || format.equalsIgnoreCase("text")) {
        t.put("LOG_FORMAT", "SLUICE_LOG_FORMAT", format.toLowerCase(Locale.ROOT));
      } else {
        t.error("LOG_FORMAT=" + format + ": expected text or json");
      }
    }
    prometheus(t);
    if (t.flag("USE_STATSD") || t.flag("USE_DOG_STATSD")) {
      t.warn("USE_STATSD (statsd is not supported; scrape Prometheus /metrics)");
    }
  }

  /**
   * USE_PROMETHEUS=true serves the reference's stat names on PROMETHEUS_ADDR (default :9090, as
   * there) at PROMETHEUS_PATH, mapped by PROMETHEUS_MAPPER_YAML or the built-in mappings.
   */
  private static void prometheus(ReferenceTranslation t) {
    if (!t.flag("USE_PROMETHEUS")) {
      for (String name :
          List.of(
              "PROMETHEUS_ADDR",
              "PROMETHEUS_PATH",
              "PROMETHEUS_MAPPER_YAML",
              "PROMETHEUS_RESPONSE_TIME_AS_MILLISECONDS")) {
        if (t.has(name)) {
          t.warn(name + " (ignored without USE_PROMETHEUS=true, as by the reference)");
        }
      }
      return;
    }
    t.put(
        "USE_PROMETHEUS",
        ReferenceMetricsSettings.REFERENCE_METRICS_ADDR,
        t.getOrDefault("PROMETHEUS_ADDR", ":9090"));
    t.same("PROMETHEUS_PATH", ReferenceMetricsSettings.REFERENCE_METRICS_PATH);
    t.same("PROMETHEUS_MAPPER_YAML", ReferenceMetricsSettings.REFERENCE_METRICS_MAPPER);
    t.bool(
        "PROMETHEUS_RESPONSE_TIME_AS_MILLISECONDS",
        ReferenceMetricsSettings.REFERENCE_METRICS_RESPONSE_TIME_MILLIS);
  }

  /** logrus level names → logback's; logrus' fatal and panic are logback's ERROR. */
  private static String logbackLevel(ReferenceTranslation t, String level) {
    return switch (level.trim().toLowerCase(Locale.ROOT)) {
      case "trace" -> "TRACE";
      case "debug" -> "DEBUG";
      case "info" -> "INFO";
      case "warn", "warning" -> "WARN";
      case "error", "fatal", "panic" -> "ERROR";
      default -> {
        t.error("LOG_LEVEL=" + level + ": expected trace, debug, info, warn or error");
        yield "INFO";
      }
    };
  }

  /** The xDS and tracing settings map one to one onto the --xds-* and --tracing* flags. */
  static void xds(ReferenceTranslation t) {
    String type = t.get("CONFIG_TYPE");
    if (type != null) {
      switch (type.toUpperCase(Locale.ROOT)) {
        case "FILE" -> t.put("CONFIG_TYPE", XdsSettings.CONFIG_SOURCE, "file");
        case "GRPC_XDS_SOTW" -> t.put("CONFIG_TYPE", XdsSettings.CONFIG_SOURCE, "xds");
        default -> t.error("CONFIG_TYPE=" + type + ": expected FILE or GRPC_XDS_SOTW");
      }
    }
    t.same("CONFIG_GRPC_XDS_SERVER_URL", XdsSettings.XDS_SERVER);
    t.same("CONFIG_GRPC_XDS_NODE_ID", XdsSettings.XDS_NODE_ID);
    t.same("CONFIG_GRPC_XDS_SERVER_USE_TLS", XdsSettings.XDS_TLS);
    t.same("CONFIG_GRPC_XDS_SERVER_TLS_CACERT", XdsSettings.XDS_TLS_CA);
    t.same("CONFIG_GRPC_XDS_CLIENT_TLS_CERT", XdsSettings.XDS_TLS_CERT);
    t.same("CONFIG_GRPC_XDS_CLIENT_TLS_KEY", XdsSettings.XDS_TLS_KEY);
    t.same("CONFIG_GRPC_XDS_SERVER_TLS_SAN", XdsSettings.XDS_TLS_SAN);
    t.duration("XDS_CLIENT_BACKOFF_INITIAL_INTERVAL", XdsSettings.XDS_BACKOFF_INITIAL);
    t.duration("XDS_CLIENT_BACKOFF_MAX_INTERVAL", XdsSettings.XDS_BACKOFF_MAX);
    if (t.has("XDS_CLIENT_BACKOFF_JITTER") && !t.flag("XDS_CLIENT_BACKOFF_JITTER")) {
      t.put("XDS_CLIENT_BACKOFF_JITTER", XdsSettings.XDS_BACKOFF_JITTER, "0");
    } else {
      t.same("XDS_CLIENT_BACKOFF_RANDOM_FACTOR", XdsSettings.XDS_BACKOFF_JITTER);
    }
    t.same("XDS_CLIENT_MAX_MSG_SIZE_IN_BYTES", XdsSettings.XDS_MAX_MESSAGE_SIZE);
    String metadata = t.get("CONFIG_GRPC_XDS_NODE_METADATA");
    if (metadata != null) {
      t.put(
          "CONFIG_GRPC_XDS_NODE_METADATA",
          XdsSettings.XDS_NODE_METADATA,
          nodeMetadataJson(metadata));
    }
    String headers = t.get("CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS");
    if (headers != null) {
      t.put(
          "CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS",
          XdsSettings.XDS_HEADER,
          headers.replaceAll("([^,:]+):", "$1="));
    }
    t.same("TRACING_ENABLED", TracingSettings.TRACING);
    if (t.flag("TRACING_ENABLED")) {
      t.put(
          "TRACING_EXPORTER_PROTOCOL",
          TracingSettings.TRACING_PROTOCOL,
          t.getOrDefault("TRACING_EXPORTER_PROTOCOL", "http"));
    }
    t.same("TRACING_SERVICE_NAME", TracingSettings.TRACING_SERVICE_NAME);
    t.same("TRACING_SERVICE_NAMESPACE", TracingSettings.TRACING_SERVICE_NAMESPACE);
    t.same("TRACING_SERVICE_INSTANCE_ID", TracingSettings.TRACING_SERVICE_INSTANCE_ID);
    t.same("TRACING_SAMPLING_RATE", TracingSettings.TRACING_SAMPLING_RATE);
  }

  /** {@code k1=v1,k2=v2} → {@code {"k1":"v1","k2":"v2"}}; entries without {@code =} dropped. */
  private static String nodeMetadataJson(String value) {
    Map<String, String> entries = new LinkedHashMap<>();
    for (String part : value.split(",")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        entries.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    return new com.google.gson.Gson().toJson(entries);
  }
}
