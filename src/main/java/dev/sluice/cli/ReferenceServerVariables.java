package dev.sluice.cli;

import dev.sluice.config.AccessSettings;
import dev.sluice.config.LimiterSettings;
import dev.sluice.config.RedisSettings;
import dev.sluice.config.ResponseSettings;
import dev.sluice.config.RulesSettings;
import dev.sluice.config.ServerSettings;
import dev.sluice.config.XdsSettings;
import java.nio.file.Path;

/**
 * The reference's server, rule and behaviour variables (ports, TLS, rule directory, cache, headers,
 * shadow and quota mode) as {@code SLUICE_*} values; part of {@link ReferenceEnvironment}.
 */
final class ReferenceServerVariables {
  private ReferenceServerVariables() {}

  static void servers(ReferenceTranslation t) {
    t.same("PORT", ServerSettings.HTTP_PORT);
    t.same("HOST", AccessSettings.HTTP_BIND);
    t.same("GRPC_PORT", ServerSettings.GRPC_PORT);
    t.same("GRPC_HOST", AccessSettings.GRPC_BIND);
    debugPort(t);
    t.duration("GRPC_MAX_CONNECTION_AGE", ServerSettings.GRPC_MAX_CONNECTION_AGE);
    t.duration("GRPC_MAX_CONNECTION_AGE_GRACE", ServerSettings.GRPC_MAX_CONNECTION_AGE_GRACE);
    if (t.flag("GRPC_SERVER_USE_TLS")) {
      t.same("GRPC_SERVER_TLS_CERT", AccessSettings.GRPC_TLS_CERT);
      t.same("GRPC_SERVER_TLS_KEY", AccessSettings.GRPC_TLS_KEY);
      t.same("GRPC_CLIENT_TLS_CACERT", AccessSettings.GRPC_TLS_CLIENT_CA);
      t.same("GRPC_CLIENT_TLS_SAN", AccessSettings.GRPC_TLS_CLIENT_SAN);
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
      t.put("DEBUG_PORT", AccessSettings.DEBUG_PORT, debugPort);
      String debugHost = t.get("DEBUG_HOST");
      if (debugHost != null && !debugHost.equals(t.getOrDefault("HOST", "0.0.0.0"))) {
        t.warn("DEBUG_HOST=" + debugHost + " (the debug port listens where PORT does, on HOST)");
      }
    } else if (t.has("DEBUG_HOST") && !t.has("HOST")) {
      t.same("DEBUG_HOST", AccessSettings.HTTP_BIND);
    }
  }

  /** The rules directory is the join of the three RUNTIME_ parts, as in the reference. */
  static void rules(ReferenceTranslation t) {
    if (t.has("RUNTIME_ROOT") || t.has("RUNTIME_SUBDIRECTORY") || t.has("RUNTIME_APPDIRECTORY")) {
      Path dir =
          Path.of(t.getOrDefault("RUNTIME_ROOT", "/srv/runtime_data/current"))
              .resolve(t.getOrDefault("RUNTIME_SUBDIRECTORY", ""))
              .resolve(t.getOrDefault("RUNTIME_APPDIRECTORY", "config"));
      t.put("RUNTIME_ROOT", RulesSettings.CONFIG, dir.normalize().toString());
    }
    // RUNTIME_WATCH_ROOT needs nothing: content polling sees both of its modes' changes.
    if (t.has("RUNTIME_IGNOREDOTFILES") && !t.flag("RUNTIME_IGNOREDOTFILES")) {
      t.warn(
          "RUNTIME_IGNOREDOTFILES=false (Sluice always skips dot files and directories, a"
              + " ConfigMap's ..data among them)");
    }
    t.bool("MERGE_DOMAIN_CONFIG", RulesSettings.MERGE_DOMAINS);
    if (t.flag("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED")) {
      // As in the reference: start with no rules, unhealthy until a load brings one domain.
      t.put("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED", ServerSettings.HEALTH_NEEDS_RULES, "true");
      t.put("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED", RulesSettings.ALLOW_EMPTY_RULES, "true");
    }
    if (t.has("FORCE_START_WITHOUT_INITIAL_CONFIG")) {
      t.put(
          "FORCE_START_WITHOUT_INITIAL_CONFIG",
          XdsSettings.XDS_REQUIRE_INITIAL_RULES,
          String.valueOf(!t.flag("FORCE_START_WITHOUT_INITIAL_CONFIG")));
    }
  }

  static void behaviour(ReferenceTranslation t) {
    String bytes = t.get("LOCAL_CACHE_SIZE_IN_BYTES");
    if (bytes != null) {
      try {
        long value = Long.parseLong(bytes.trim());
        long entries = value <= 0 ? 0 : Math.max(1, value / ReferenceEnvironment.CACHE_ENTRY_BYTES);
        t.put(
            "LOCAL_CACHE_SIZE_IN_BYTES", LimiterSettings.LOCAL_CACHE_SIZE, String.valueOf(entries));
      } catch (NumberFormatException e) {
        t.error("LOCAL_CACHE_SIZE_IN_BYTES=" + bytes + ": not a number of bytes");
      }
    }
    t.same("NEAR_LIMIT_RATIO", LimiterSettings.NEAR_LIMIT_RATIO);
    String jitter = t.get("EXPIRATION_JITTER_MAX_SECONDS");
    if (jitter != null) {
      t.put("EXPIRATION_JITTER_MAX_SECONDS", RedisSettings.EXPIRATION_JITTER, jitter.trim() + "s");
    }
    if (t.flag("STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT")) {
      t.put("STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT", LimiterSettings.CHARGE_DENIED, "false");
    }
    t.bool("SHADOW_MODE", LimiterSettings.SHADOW_MODE);
    t.bool("QUOTA_MODE", LimiterSettings.QUOTA_MODE);
    t.bool("LIMIT_RESPONSE_HEADERS_ENABLED", ResponseSettings.RESPONSE_HEADERS);
    t.same("LIMIT_LIMIT_HEADER", ResponseSettings.LIMIT_HEADER);
    t.same("LIMIT_REMAINING_HEADER", ResponseSettings.REMAINING_HEADER);
    t.same("LIMIT_RESET_HEADER", ResponseSettings.RESET_HEADER);
    t.bool("RESPONSE_DYNAMIC_METADATA", ResponseSettings.RESPONSE_DYNAMIC_METADATA);
  }
}
