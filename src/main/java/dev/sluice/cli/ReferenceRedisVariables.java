package dev.sluice.cli;

import dev.sluice.config.RedisSettings;
import dev.sluice.config.ServeSettings;
import dev.sluice.config.ServerSettings;
import dev.sluice.config.Setting;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * The reference's backend and Redis variables (BACKEND_TYPE, REDIS_*, REDIS_PERSECOND_*) as {@code
 * SLUICE_*} values, the URL assembled from the reference's parts; part of {@link
 * ReferenceEnvironment}.
 */
final class ReferenceRedisVariables {
  private ReferenceRedisVariables() {}

  /** Redis is the reference's default backend: a Redis URL alone selects it. */
  static void store(ReferenceTranslation t) {
    String backend = t.getOrDefault("BACKEND_TYPE", "").toLowerCase(Locale.ROOT);
    switch (backend) {
      case "redis" -> t.put("BACKEND_TYPE", ServeSettings.STORE, "redis");
      case "" -> {
        if (t.has("REDIS_URL")) {
          t.put("REDIS_URL", ServeSettings.STORE, "redis");
        }
      }
      case "memcache" ->
          t.error("BACKEND_TYPE=memcache: not supported; use Redis (BACKEND_TYPE=redis)");
      default ->
          t.error(
              "BACKEND_TYPE="
                  + t.get("BACKEND_TYPE")
                  + ": unknown backend; use BACKEND_TYPE=redis");
    }
    t.same("CACHE_KEY_PREFIX", RedisSettings.REDIS_KEY_PREFIX);
  }

  static void redis(ReferenceTranslation t) {
    redisTarget(
        t,
        "REDIS_",
        new RedisTarget(
            RedisSettings.REDIS_URL,
            RedisSettings.REDIS_CONNECTIONS,
            RedisSettings.REDIS_TIMEOUT,
            RedisSettings.REDIS_SENTINEL_PASSWORD));
    if (t.flag("REDIS_PERSECOND")) {
      redisTarget(
          t,
          "REDIS_PERSECOND_",
          new RedisTarget(
              RedisSettings.PER_SECOND_REDIS_URL,
              RedisSettings.PER_SECOND_REDIS_CONNECTIONS,
              RedisSettings.PER_SECOND_REDIS_TIMEOUT,
              RedisSettings.PER_SECOND_REDIS_SENTINEL_PASSWORD));
    }
    healthFollowsRedis(t);
    if (t.flag("REDIS_TLS") || t.flag("REDIS_PERSECOND_TLS")) {
      t.same("REDIS_TLS_CACERT", RedisSettings.REDIS_TLS_CA);
      t.same("REDIS_TLS_CLIENT_CERT", RedisSettings.REDIS_TLS_CERT);
      t.same("REDIS_TLS_CLIENT_KEY", RedisSettings.REDIS_TLS_KEY);
      if (t.flag("REDIS_TLS_SKIP_HOSTNAME_VERIFICATION")) {
        // Broader than the reference: the certificate is not checked either.
        t.put("REDIS_TLS_SKIP_HOSTNAME_VERIFICATION", RedisSettings.REDIS_TLS_INSECURE, "true");
      }
    }
  }

  /**
   * The reference stays healthy through a Redis outage unless REDIS_HEALTH_CHECK_ACTIVE_CONNECTION
   * is true; so, where it would use Redis, health follows the store only when that asks for it.
   */
  private static void healthFollowsRedis(ReferenceTranslation t) {
    boolean redis =
        t.has("REDIS_URL") || t.getOrDefault("BACKEND_TYPE", "").equalsIgnoreCase("redis");
    if (redis) {
      t.put(
          "REDIS_HEALTH_CHECK_ACTIVE_CONNECTION",
          ServerSettings.HEALTH_FOLLOWS_STORE,
          String.valueOf(t.flag("REDIS_HEALTH_CHECK_ACTIVE_CONNECTION")));
    }
  }

  /** The settings one Redis (main or per-second) is configured by. */
  private record RedisTarget(
      Setting<?> url, Setting<?> connections, Setting<?> timeout, Setting<?> sentinelPassword) {}

  /** One Redis (main or per-second): its URL from the reference's parts, pool size, timeout. */
  private static void redisTarget(ReferenceTranslation t, String ref, RedisTarget sluice) {
    String url = t.get(ref + "URL");
    if (url != null) {
      redisUrl(t, ref, url).ifPresent(value -> t.put(ref + "URL", sluice.url(), value));
    }
    t.same(ref + "POOL_SIZE", sluice.connections());
    t.duration(ref + "TIMEOUT", sluice.timeout());
    if (t.has(ref + "SENTINEL_AUTH")) {
      t.put(ref + "SENTINEL_AUTH", sluice.sentinelPassword(), t.get(ref + "SENTINEL_AUTH"));
    }
  }

  /**
   * The reference's URL shapes plus REDIS_AUTH and REDIS_TLS → a {@code --redis-url}: SINGLE {@code
   * host:port} → {@code redis[s]://}, CLUSTER {@code h1:p1,h2:p2} → {@code redis[s]-cluster://},
   * SENTINEL {@code master,s1:p1,…} → {@code redis[s]-sentinel://s1:p1,…/master}, a unix socket
   * path → {@code unix://}. The reference's default socket type is unix, but a {@code host:port}
   * URL can only mean tcp.
   */
  private static Optional<String> redisUrl(ReferenceTranslation t, String ref, String url) {
    String type = t.getOrDefault(ref + "TYPE", "SINGLE").toUpperCase(Locale.ROOT);
    String socket = t.getOrDefault(ref + "SOCKET_TYPE", "").toLowerCase(Locale.ROOT);
    String tls = t.flag(ref + "TLS") ? "rediss" : "redis";
    String user = userInfo(t.getOrDefault(ref + "AUTH", ""));
    if (socket.equals("unix") || url.startsWith("/")) {
      return Optional.of("unix://" + user + url);
    }
    switch (type) {
      case "SINGLE":
        return Optional.of(tls + "://" + user + url);
      case "CLUSTER":
        return Optional.of(tls + "-cluster://" + user + url);
      case "SENTINEL":
        int comma = url.indexOf(',');
        if (comma < 0) {
          t.error(ref + "URL=" + url + ": expected master,sentinel1:port,... for SENTINEL");
          return Optional.empty();
        }
        return Optional.of(
            tls + "-sentinel://" + user + url.substring(comma + 1) + "/" + url.substring(0, comma));
      default:
        t.error(ref + "TYPE=" + type + ": expected SINGLE, SENTINEL or CLUSTER");
        return Optional.empty();
    }
  }

  /** REDIS_AUTH is {@code password} or {@code user:password}. */
  private static String userInfo(String auth) {
    if (auth.isEmpty()) {
      return "";
    }
    int colon = auth.indexOf(':');
    return colon < 0
        ? ":" + encode(auth) + "@"
        : encode(auth.substring(0, colon)) + ":" + encode(auth.substring(colon + 1)) + "@";
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
