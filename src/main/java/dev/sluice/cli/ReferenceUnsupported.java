package dev.sluice.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reference variables Sluice has no use for, each with what to use instead: set, each becomes part
 * of the one warning line; part of {@link ReferenceEnvironment}.
 */
final class ReferenceUnsupported {
  private static final Map<String, String> NOT_IMPLEMENTED = notImplemented();

  private ReferenceUnsupported() {}

  /** Warns of every such variable that is set. */
  static void translate(ReferenceTranslation t) {
    NOT_IMPLEMENTED.forEach(
        (name, instead) -> {
          if (t.has(name)) {
            t.warn(name + " (" + instead + ")");
          }
        });
  }

  private static Map<String, String> notImplemented() {
    Map<String, String> names = new LinkedHashMap<>();
    String memcache = "memcache is not supported; use Redis";
    for (String name :
        List.of(
            "MEMCACHE_HOST_PORT",
            "MEMCACHE_MAX_IDLE_CONNS",
            "MEMCACHE_SRV",
            "MEMCACHE_SRV_REFRESH",
            "MEMCACHE_TLS",
            "MEMCACHE_TLS_CLIENT_CERT",
            "MEMCACHE_TLS_CLIENT_KEY",
            "MEMCACHE_TLS_CACERT",
            "MEMCACHE_TLS_SKIP_HOSTNAME_VERIFICATION")) {
      names.put(name, memcache);
    }
    String statsd = "statsd is not supported; scrape Prometheus /metrics on the HTTP port";
    for (String name :
        List.of(
            "USE_DOG_STATSD_MOGRIFIERS",
            "STATSD_HOST",
            "STATSD_PORT",
            "EXTRA_TAGS",
            "STATS_FLUSH_INTERVAL",
            "DISABLE_STATS")) {
      names.put(name, statsd);
    }
    String batching = "not needed: each Redis connection sends its whole queue as one pipeline";
    for (String name :
        List.of(
            "REDIS_PIPELINE_WINDOW",
            "REDIS_PIPELINE_LIMIT",
            "REDIS_PERSECOND_PIPELINE_WINDOW",
            "REDIS_PERSECOND_PIPELINE_LIMIT",
            "REDIS_POOL_ON_EMPTY_BEHAVIOR",
            "REDIS_PERSECOND_POOL_ON_EMPTY_BEHAVIOR")) {
      names.put(name, batching);
    }
    String startup = "not needed: Sluice starts without Redis and connects when it appears";
    for (String name :
        List.of(
            "REDIS_STARTUP_INITIAL_INTERVAL",
            "REDIS_STARTUP_MAX_INTERVAL",
            "REDIS_STARTUP_MAX_ELAPSED_TIME")) {
      names.put(name, startup);
    }
    String cluster = "not needed: Sluice sends each cluster node its part of a request at once";
    names.put("REDIS_CLUSTER_PIPELINE_PARALLELISM", cluster);
    names.put("REDIS_PERSECOND_CLUSTER_PIPELINE_PARALLELISM", cluster);
    names.put("GRPC_UDS", "not supported: listen on GRPC_HOST/GRPC_PORT");
    names.put(
        "CONFIG_GRPC_XDS_SERVER_CONNECT_RETRY_INTERVAL",
        "not needed: one backoff, XDS_CLIENT_BACKOFF_*, for connecting and reconnecting");
    return names;
  }
}
