package dev.sluice.cli;

import java.nio.file.Path;

/**
 * The reference's server, rule and behaviour variables (ports, TLS, rule directory, cache, headers,
 * shadow and quota mode) as {@code SLUICE_*} values; part of {@link ReferenceEnvironment}.
 */
final class ReferenceServerVariables {
  private ReferenceServerVariables() {}

  static void servers(ReferenceTranslation t) {
    t.same("PORT", "SLUICE_HTTP_PORT");
    t.same("HOST", "SLUICE_HTTP_BIND");
    t.same("GRPC_PORT", "SLUICE_GRPC_PORT");
    t.same("GRPC_HOST", "SLUICE_GRPC_BIND");
    debugPort(t);
    t.duration("GRPC_MAX_CONNECTION_AGE", "SLUICE_GRPC_MAX_CONNECTION_AGE");
    t.duration("GRPC_MAX_CONNECTION_AGE_GRACE", "SLUICE_GRPC_MAX_CONNECTION_AGE_GRACE");
    if (t.flag("GRPC_SERVER_USE_TLS")) {
      t.same("GRPC_SERVER_TLS_CERT", "SLUICE_GRPC_TLS_CERT");
      t.same("GRPC_SERVER_TLS_KEY", "SLUICE_GRPC_TLS_KEY");
      t.same("GRPC_CLIENT_TLS_CACERT", "SLUICE_GRPC_TLS_CLIENT_CA");
      t.same("GRPC_CLIENT_TLS_SAN", "SLUICE_GRPC_TLS_CLIENT_SAN");
    }
  }

  /**
   * A DEBUG_PORT other than PORT opens the debug listener there ({@code /rlconfig}); one equal to
   * PORT needs nothing, the HTTP port serves {@code /rlconfig}. Only when set: the reference's
   * default 6070 is not opened unasked. The debug listener binds where the HTTP port does, so a
   * DEBUG_HOST of its own is warned about; without a listener of its own, DEBUG_HOST binds the HTTP
   * port when HOST does not.
   */
  private static void debugPort(ReferenceTranslation t) {
    String debugPort = t.get("DEBUG_PORT");
    if (debugPort != null && !debugPort.equals(t.getOrDefault("PORT", "8080"))) {
      t.put("DEBUG_PORT", "SLUICE_DEBUG_PORT", debugPort);
      String debugHost = t.get("DEBUG_HOST");
      if (debugHost != null && !debugHost.equals(t.getOrDefault("HOST", "0.0.0.0"))) {
        t.warn("DEBUG_HOST=" + debugHost + " (the debug port listens where PORT does, on HOST)");
      }
    } else if (t.has("DEBUG_HOST") && !t.has("HOST")) {
      t.same("DEBUG_HOST", "SLUICE_HTTP_BIND");
    }
  }

  /** The rules directory is the join of the three RUNTIME_ parts, as in the reference. */
  static void rules(ReferenceTranslation t) {
    if (t.has("RUNTIME_ROOT") || t.has("RUNTIME_SUBDIRECTORY") || t.has("RUNTIME_APPDIRECTORY")) {
      Path dir =
          Path.of(t.getOrDefault("RUNTIME_ROOT", "/srv/runtime_data/current"))
              .resolve(t.getOrDefault("RUNTIME_SUBDIRECTORY", ""))
              .resolve(t.getOrDefault("RUNTIME_APPDIRECTORY", "config"));
      t.put("RUNTIME_ROOT", "SLUICE_CONFIG", dir.normalize().toString());
    }
    // RUNTIME_WATCH_ROOT needs nothing: content polling sees both of its modes' changes.
    if (t.has("RUNTIME_IGNOREDOTFILES") && !t.flag("RUNTIME_IGNOREDOTFILES")) {
      t.warn(
          "RUNTIME_IGNOREDOTFILES=false (Sluice always skips dot files and directories, a"
              + " ConfigMap's ..data among them)");
    }
    t.bool("MERGE_DOMAIN_CONFIG", "SLUICE_MERGE_DOMAINS");
    if (t.flag("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED")) {
      // As in the reference: start with no rules, unhealthy until a load brings one domain.
      t.put("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED", "SLUICE_HEALTH_NEEDS_RULES", "true");
      t.put("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED", "SLUICE_ALLOW_EMPTY_RULES", "true");
    }
    if (t.has("FORCE_START_WITHOUT_INITIAL_CONFIG")) {
      t.put(
          "FORCE_START_WITHOUT_INITIAL_CONFIG",
          "SLUICE_XDS_REQUIRE_INITIAL_RULES",
          String.valueOf(!t.flag("FORCE_START_WITHOUT_INITIAL_CONFIG")));
    }
  }

  static void behaviour(ReferenceTranslation t) {
    String bytes = t.get("LOCAL_CACHE_SIZE_IN_BYTES");
    if (bytes != null) {
      try {
        long value = Long.parseLong(bytes.trim());
        long entries = value <= 0 ? 0 : Math.max(1, value / ReferenceEnvironment.CACHE_ENTRY_BYTES);
        t.put("LOCAL_CACHE_SIZE_IN_BYTES", "SLUICE_LOCAL_CACHE_SIZE", String.valueOf(entries));
      } catch (NumberFormatException e) {
        t.error("LOCAL_CACHE_SIZE_IN_BYTES=" + bytes + ": not a number of bytes");
      }
    }
    t.same("NEAR_LIMIT_RATIO", "SLUICE_NEAR_LIMIT_RATIO");
    String jitter = t.get("EXPIRATION_JITTER_MAX_SECONDS");
    if (jitter != null) {
      t.put("EXPIRATION_JITTER_MAX_SECONDS", "SLUICE_EXPIRATION_JITTER", jitter.trim() + "s");
    }
    if (t.flag("STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT")) {
      t.put("STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT", "SLUICE_CHARGE_DENIED", "false");
    }
    t.bool("SHADOW_MODE", "SLUICE_SHADOW_MODE");
    t.bool("QUOTA_MODE", "SLUICE_QUOTA_MODE");
    t.bool("LIMIT_RESPONSE_HEADERS_ENABLED", "SLUICE_RESPONSE_HEADERS");
    t.same("LIMIT_LIMIT_HEADER", "SLUICE_LIMIT_HEADER");
    t.same("LIMIT_REMAINING_HEADER", "SLUICE_REMAINING_HEADER");
    t.same("LIMIT_RESET_HEADER", "SLUICE_RESET_HEADER");
    t.bool("RESPONSE_DYNAMIC_METADATA", "SLUICE_RESPONSE_DYNAMIC_METADATA");
  }
}
