package dev.sluice.cli;

import java.lang.reflect.Field;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * envoyproxy/ratelimit's environment variables, read as they are: each one is translated into the
 * {@code SLUICE_*} variable of the same meaning, and this overlay answers an option's default when
 * the real environment lacks that {@code SLUICE_*} variable. So the precedence is flag, {@code
 * SLUICE_*}, reference name, default. A reference variable Sluice does not implement becomes one
 * warning line ({@link #warnings}); one whose value Sluice cannot honour (memcache, unix sockets)
 * is an error ({@link #errors}). Immutable once built.
 */
public final class ReferenceEnvironment implements IDefaultValueProvider {
  /**
   * Bytes one local over-limit cache entry takes, to turn {@code LOCAL_CACHE_SIZE_IN_BYTES} into
   * entries: a Caffeine node with expiry (~100 bytes), the counter key string (~100) and the cached
   * state (~50), rounded up.
   */
  static final long CACHE_ENTRY_BYTES = 256;

  private static final Pattern ENV_DEFAULT = Pattern.compile("\\$\\{env:(SLUICE_[A-Z0-9_]+)");

  /** Reference variables Sluice has no use for, and what to use instead. */
  private static final Map<String, String> NOT_IMPLEMENTED = notImplemented();

  private final Map<String, String> env;
  private final Map<String, String> overlay = new LinkedHashMap<>();
  private final Map<String, String> sourceOf = new LinkedHashMap<>();
  private final List<String> warnings = new ArrayList<>();
  private final List<String> errors = new ArrayList<>();

  private ReferenceEnvironment(Map<String, String> env) {
    this.env = Map.copyOf(env);
    translate();
  }

  /** Translates the reference variables found in {@code env} (usually {@code System.getenv()}). */
  public static ReferenceEnvironment of(Map<String, String> env) {
    return new ReferenceEnvironment(env);
  }

  /** No reference variables: every default comes from the annotations. */
  static ReferenceEnvironment none() {
    return new ReferenceEnvironment(Map.of());
  }

  /** The {@code SLUICE_*} values this overlay adds, each absent from the real environment. */
  public Map<String, String> sluiceView() {
    return Map.copyOf(overlay);
  }

  /** Values that cannot be honoured, each {@code NAME=value: reason}; serve refuses to start. */
  List<String> errors() {
    return List.copyOf(errors);
  }

  /**
   * Reference variables that are set but not implemented, with what to use instead, including those
   * whose {@code SLUICE_*} twin no option of {@code command} reads yet.
   */
  List<String> warnings(CommandSpec command) {
    Set<String> read = new TreeSet<>();
    for (OptionSpec option : command.options()) {
      envName(option).ifPresent(read::add);
    }
    read.add("SLUICE_LOG_LEVEL"); // read by logback.xml
    read.add("SLUICE_LOG_FORMAT"); // read by Main before logging starts
    List<String> all = new ArrayList<>(warnings);
    overlay.keySet().stream()
        .filter(name -> !read.contains(name))
        .forEach(name -> all.add(sourceOf.get(name) + ": not supported yet (no " + name + ")"));
    return all;
  }

  /** The one startup line naming every reference variable Sluice does not honour, if any. */
  Optional<String> warningLine(CommandSpec command) {
    List<String> all = warnings(command);
    return all.isEmpty()
        ? Optional.empty()
        : Optional.of(
            "reference variables not implemented (" + all.size() + "): " + String.join("; ", all));
  }

  @Override
  public String defaultValue(ArgSpec argSpec) {
    // The SLUICE_* value of the given environment first: for System.getenv() the same as the
    // annotation's own ${env:...}, and it lets a test hand in a whole environment.
    return envName(argSpec).map(name -> env.getOrDefault(name, overlay.get(name))).orElse(null);
  }

  /**
   * The env twin an option's annotation names, {@code ${env:SLUICE_X:-d}} → {@code SLUICE_X}; read
   * from the annotation because picocli only exposes the interpolated default.
   */
  private static Optional<String> envName(ArgSpec arg) {
    if (!(arg.userObject() instanceof Field field) || !field.isAnnotationPresent(Option.class)) {
      return Optional.empty();
    }
    Matcher matcher = ENV_DEFAULT.matcher(field.getAnnotation(Option.class).defaultValue());
    return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
  }

  /** The log level for logback: SLUICE_LOG_LEVEL, else the reference's LOG_LEVEL, translated. */
  Optional<String> logLevel() {
    return Optional.ofNullable(
        env.getOrDefault("SLUICE_LOG_LEVEL", overlay.get("SLUICE_LOG_LEVEL")));
  }

  /** {@code text} or {@code json}: SLUICE_LOG_FORMAT, else the reference's LOG_FORMAT. */
  String logFormat() {
    return env.getOrDefault("SLUICE_LOG_FORMAT", overlay.getOrDefault("SLUICE_LOG_FORMAT", "text"))
        .toLowerCase(Locale.ROOT);
  }

  // --- translation -----------------------------------------------------------------------------

  private void translate() {
    servers();
    rules();
    store();
    redis();
    behaviour();
    observability();
    xds();
    NOT_IMPLEMENTED.forEach(
        (name, instead) -> {
          if (env.containsKey(name)) {
            warnings.add(name + " (" + instead + ")");
          }
        });
  }

  private void servers() {
    same("PORT", "SLUICE_HTTP_PORT");
    same("HOST", "SLUICE_HTTP_BIND");
    same("GRPC_PORT", "SLUICE_GRPC_PORT");
    same("GRPC_HOST", "SLUICE_GRPC_BIND");
    String debugPort = env.get("DEBUG_PORT");
    if (debugPort != null && !debugPort.equals(env.getOrDefault("PORT", "8080"))) {
      warnings.add(
          "DEBUG_PORT="
              + debugPort
              + " (Sluice serves /rlconfig, /metrics and the other debug endpoints on the HTTP"
              + " port, PORT)");
    }
    if (env.containsKey("DEBUG_HOST") && !env.containsKey("HOST")) {
      same("DEBUG_HOST", "SLUICE_HTTP_BIND");
    }
    duration("GRPC_MAX_CONNECTION_AGE", "SLUICE_GRPC_MAX_CONNECTION_AGE");
    duration("GRPC_MAX_CONNECTION_AGE_GRACE", "SLUICE_GRPC_MAX_CONNECTION_AGE_GRACE");
    if (flag("GRPC_SERVER_USE_TLS")) {
      same("GRPC_SERVER_TLS_CERT", "SLUICE_GRPC_TLS_CERT");
      same("GRPC_SERVER_TLS_KEY", "SLUICE_GRPC_TLS_KEY");
      same("GRPC_CLIENT_TLS_CACERT", "SLUICE_GRPC_TLS_CLIENT_CA");
      same("GRPC_CLIENT_TLS_SAN", "SLUICE_GRPC_TLS_CLIENT_SAN");
    }
  }

  /** The rules directory is the join of the three RUNTIME_ parts, as in the reference. */
  private void rules() {
    if (env.containsKey("RUNTIME_ROOT")
        || env.containsKey("RUNTIME_SUBDIRECTORY")
        || env.containsKey("RUNTIME_APPDIRECTORY")) {
      Path dir =
          Path.of(env.getOrDefault("RUNTIME_ROOT", "/srv/runtime_data/current"))
              .resolve(env.getOrDefault("RUNTIME_SUBDIRECTORY", ""))
              .resolve(env.getOrDefault("RUNTIME_APPDIRECTORY", "config"));
      put("RUNTIME_ROOT", "SLUICE_CONFIG", dir.normalize().toString());
    }
    bool("MERGE_DOMAIN_CONFIG", "SLUICE_MERGE_DOMAINS");
    if (flag("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED")) {
      // As in the reference: start with no rules, unhealthy until a load brings one domain.
      put("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED", "SLUICE_HEALTH_NEEDS_RULES", "true");
      put("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED", "SLUICE_ALLOW_EMPTY_RULES", "true");
    }
    if (env.containsKey("FORCE_START_WITHOUT_INITIAL_CONFIG")) {
      put(
          "FORCE_START_WITHOUT_INITIAL_CONFIG",
          "SLUICE_XDS_REQUIRE_INITIAL_RULES",
          String.valueOf(!flag("FORCE_START_WITHOUT_INITIAL_CONFIG")));
    }
  }

  /** Redis is the reference's default backend: a Redis URL alone selects it. */
  private void store() {
    String backend = env.getOrDefault("BACKEND_TYPE", "").toLowerCase(Locale.ROOT);
    switch (backend) {
      case "redis" -> put("BACKEND_TYPE", "SLUICE_STORE", "redis");
      case "" -> {
        if (env.containsKey("REDIS_URL")) {
          put("REDIS_URL", "SLUICE_STORE", "redis");
        }
      }
      case "memcache" ->
          errors.add("BACKEND_TYPE=memcache: not supported; use Redis (BACKEND_TYPE=redis)");
      default ->
          errors.add(
              "BACKEND_TYPE="
                  + env.get("BACKEND_TYPE")
                  + ": unknown backend; use BACKEND_TYPE=redis");
    }
    same("CACHE_KEY_PREFIX", "SLUICE_REDIS_KEY_PREFIX");
  }

  private void redis() {
    redisTarget("REDIS_", "SLUICE_REDIS_");
    if (flag("REDIS_PERSECOND")) {
      redisTarget("REDIS_PERSECOND_", "SLUICE_PER_SECOND_REDIS_");
    }
    if (flag("REDIS_TLS") || flag("REDIS_PERSECOND_TLS")) {
      same("REDIS_TLS_CACERT", "SLUICE_REDIS_TLS_CA");
      same("REDIS_TLS_CLIENT_CERT", "SLUICE_REDIS_TLS_CERT");
      same("REDIS_TLS_CLIENT_KEY", "SLUICE_REDIS_TLS_KEY");
      if (flag("REDIS_TLS_SKIP_HOSTNAME_VERIFICATION")) {
        // Broader than the reference: the certificate is not checked either.
        put("REDIS_TLS_SKIP_HOSTNAME_VERIFICATION", "SLUICE_REDIS_TLS_INSECURE", "true");
      }
    }
  }

  /** One Redis (main or per-second): its URL from the reference's parts, pool size, timeout. */
  private void redisTarget(String ref, String sluice) {
    String url = env.get(ref + "URL");
    if (url != null) {
      redisUrl(ref, url).ifPresent(value -> put(ref + "URL", sluice + "URL", value));
    }
    same(ref + "POOL_SIZE", sluice + "CONNECTIONS");
    duration(ref + "TIMEOUT", sluice + "TIMEOUT");
    if (env.containsKey(ref + "SENTINEL_AUTH")) {
      put(ref + "SENTINEL_AUTH", sluice + "SENTINEL_PASSWORD", env.get(ref + "SENTINEL_AUTH"));
    }
  }

  /**
   * The reference's URL shapes plus REDIS_AUTH and REDIS_TLS → a {@code --redis-url}: SINGLE {@code
   * host:port} → {@code redis[s]://}, CLUSTER {@code h1:p1,h2:p2} → {@code redis[s]-cluster://},
   * SENTINEL {@code master,s1:p1,…} → {@code redis[s]-sentinel://s1:p1,…/master}, a unix socket
   * path → {@code unix://}. The reference's default socket type is unix, but a {@code host:port}
   * URL can only mean tcp.
   */
  private Optional<String> redisUrl(String ref, String url) {
    String type = env.getOrDefault(ref + "TYPE", "SINGLE").toUpperCase(Locale.ROOT);
    String socket = env.getOrDefault(ref + "SOCKET_TYPE", "").toLowerCase(Locale.ROOT);
    String tls = flag(ref + "TLS") ? "rediss" : "redis";
    String user = userInfo(env.getOrDefault(ref + "AUTH", ""));
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
          errors.add(ref + "URL=" + url + ": expected master,sentinel1:port,... for SENTINEL");
          return Optional.empty();
        }
        return Optional.of(
            tls + "-sentinel://" + user + url.substring(comma + 1) + "/" + url.substring(0, comma));
      default:
        errors.add(ref + "TYPE=" + type + ": expected SINGLE, SENTINEL or CLUSTER");
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

  private void behaviour() {
    String bytes = env.get("LOCAL_CACHE_SIZE_IN_BYTES");
    if (bytes != null) {
      try {
        long value = Long.parseLong(bytes.trim());
        long entries = value <= 0 ? 0 : Math.max(1, value / CACHE_ENTRY_BYTES);
        put("LOCAL_CACHE_SIZE_IN_BYTES", "SLUICE_LOCAL_CACHE_SIZE", String.valueOf(entries));
      } catch (NumberFormatException e) {
        errors.add("LOCAL_CACHE_SIZE_IN_BYTES=" + bytes + ": not a number of bytes");
      }
    }
    same("NEAR_LIMIT_RATIO", "SLUICE_NEAR_LIMIT_RATIO");
    String jitter = env.get("EXPIRATION_JITTER_MAX_SECONDS");
    if (jitter != null) {
      put("EXPIRATION_JITTER_MAX_SECONDS", "SLUICE_EXPIRATION_JITTER", jitter.trim() + "s");
    }
    if (flag("STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT")) {
      put("STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT", "SLUICE_CHARGE_DENIED", "false");
    }
    bool("SHADOW_MODE", "SLUICE_SHADOW_MODE");
    bool("QUOTA_MODE", "SLUICE_QUOTA_MODE");
    bool("LIMIT_RESPONSE_HEADERS_ENABLED", "SLUICE_RESPONSE_HEADERS");
    same("LIMIT_LIMIT_HEADER", "SLUICE_LIMIT_HEADER");
    same("LIMIT_REMAINING_HEADER", "SLUICE_REMAINING_HEADER");
    same("LIMIT_RESET_HEADER", "SLUICE_RESET_HEADER");
    bool("RESPONSE_DYNAMIC_METADATA", "SLUICE_RESPONSE_DYNAMIC_METADATA");
  }

  private void observability() {
    String level = env.get("LOG_LEVEL");
    if (level != null) {
      put("LOG_LEVEL", "SLUICE_LOG_LEVEL", logbackLevel(level));
    }
    String format = env.get("LOG_FORMAT");
    if (format != null) {
      if (format.equalsIgnoreCase("json") || format.equalsIgnoreCase("text")) {
        put("LOG_FORMAT", "SLUICE_LOG_FORMAT", format.toLowerCase(Locale.ROOT));
      } else {
        errors.add("LOG_FORMAT=" + format + ": expected text or json");
      }
    }
    String addr = env.get("PROMETHEUS_ADDR");
    if (flag("USE_PROMETHEUS") && addr != null) {
      warnings.add(
          "PROMETHEUS_ADDR="
              + addr
              + " (metrics are always on the HTTP port, PORT, at /metrics; scrape that)");
    }
    String path = env.get("PROMETHEUS_PATH");
    if (path != null && !path.equals("/metrics")) {
      warnings.add("PROMETHEUS_PATH=" + path + " (Sluice's metrics path is /metrics)");
    }
    if (flag("USE_STATSD") || flag("USE_DOG_STATSD")) {
      warnings.add("USE_STATSD (statsd is not supported; scrape Prometheus /metrics)");
    }
  }

  /** The xDS and tracing settings map one to one onto the --xds-* and --tracing* flags. */
  private void xds() {
    String type = env.get("CONFIG_TYPE");
    if (type != null) {
      switch (type.toUpperCase(Locale.ROOT)) {
        case "FILE" -> put("CONFIG_TYPE", "SLUICE_CONFIG_SOURCE", "file");
        case "GRPC_XDS_SOTW" -> put("CONFIG_TYPE", "SLUICE_CONFIG_SOURCE", "xds");
        default -> errors.add("CONFIG_TYPE=" + type + ": expected FILE or GRPC_XDS_SOTW");
      }
    }
    same("CONFIG_GRPC_XDS_SERVER_URL", "SLUICE_XDS_SERVER");
    same("CONFIG_GRPC_XDS_NODE_ID", "SLUICE_XDS_NODE_ID");
    same("CONFIG_GRPC_XDS_SERVER_USE_TLS", "SLUICE_XDS_TLS");
    same("CONFIG_GRPC_XDS_SERVER_TLS_CACERT", "SLUICE_XDS_TLS_CA");
    same("CONFIG_GRPC_XDS_CLIENT_TLS_CERT", "SLUICE_XDS_TLS_CERT");
    same("CONFIG_GRPC_XDS_CLIENT_TLS_KEY", "SLUICE_XDS_TLS_KEY");
    same("CONFIG_GRPC_XDS_SERVER_TLS_SAN", "SLUICE_XDS_TLS_SAN");
    duration("XDS_CLIENT_BACKOFF_INITIAL_INTERVAL", "SLUICE_XDS_BACKOFF_INITIAL");
    duration("XDS_CLIENT_BACKOFF_MAX_INTERVAL", "SLUICE_XDS_BACKOFF_MAX");
    if (env.containsKey("XDS_CLIENT_BACKOFF_JITTER") && !flag("XDS_CLIENT_BACKOFF_JITTER")) {
      put("XDS_CLIENT_BACKOFF_JITTER", "SLUICE_XDS_BACKOFF_JITTER", "0");
    } else {
      same("XDS_CLIENT_BACKOFF_RANDOM_FACTOR", "SLUICE_XDS_BACKOFF_JITTER");
    }
    same("XDS_CLIENT_MAX_MSG_SIZE_IN_BYTES", "SLUICE_XDS_MAX_MESSAGE_SIZE");
    String metadata = env.get("CONFIG_GRPC_XDS_NODE_METADATA");
    if (metadata != null) {
      put("CONFIG_GRPC_XDS_NODE_METADATA", "SLUICE_XDS_NODE_METADATA", nodeMetadataJson(metadata));
    }
    String headers = env.get("CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS");
    if (headers != null) {
      put(
          "CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS",
          "SLUICE_XDS_HEADERS",
          headers.replaceAll("([^,:]+):", "$1="));
    }
    same("TRACING_ENABLED", "SLUICE_TRACING");
    if (flag("TRACING_ENABLED")) {
      put(
          "TRACING_EXPORTER_PROTOCOL",
          "SLUICE_TRACING_PROTOCOL",
          env.getOrDefault("TRACING_EXPORTER_PROTOCOL", "http"));
    }
    same("TRACING_SERVICE_NAME", "SLUICE_TRACING_SERVICE_NAME");
    same("TRACING_SERVICE_NAMESPACE", "SLUICE_TRACING_SERVICE_NAMESPACE");
    same("TRACING_SERVICE_INSTANCE_ID", "SLUICE_TRACING_SERVICE_INSTANCE_ID");
    same("TRACING_SAMPLING_RATE", "SLUICE_TRACING_SAMPLING_RATE");
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

  // --- helpers ---------------------------------------------------------------------------------

  private void same(String reference, String sluice) {
    if (env.containsKey(reference)) {
      put(reference, sluice, env.get(reference));
    }
  }

  /** A Go boolean (1, t, TRUE, ...) as picocli's {@code true}/{@code false}. */
  private void bool(String reference, String sluice) {
    if (env.containsKey(reference)) {
      put(reference, sluice, String.valueOf(flag(reference)));
    }
  }

  private void duration(String reference, String sluice) {
    String value = env.get(reference);
    if (value == null) {
      return;
    }
    try {
      put(reference, sluice, goDuration(value).toMillis() + "ms");
    } catch (IllegalArgumentException e) {
      errors.add(reference + "=" + value + ": " + e.getMessage());
    }
  }

  /** Only where the real environment does not set the SLUICE_* twin: that one wins. */
  private void put(String reference, String sluice, String value) {
    if (!env.containsKey(sluice) && !overlay.containsKey(sluice)) {
      overlay.put(sluice, value);
      sourceOf.put(sluice, reference);
    }
  }

  /** Go's strconv.ParseBool, which the reference's envconfig uses. */
  private boolean flag(String name) {
    String value = env.getOrDefault(name, "false").trim();
    return Set.of("1", "t", "T", "true", "TRUE", "True").contains(value);
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static final Pattern GO_PART = Pattern.compile("(\\d+(?:\\.\\d*)?)(ns|us|µs|ms|s|m|h)");

  /** Go's time.ParseDuration: {@code 1h30m}, {@code 1.5s}, {@code 500ms}, {@code 0}. */
  static Duration goDuration(String text) {
    String value = text.trim();
    if (value.equals("0")) {
      return Duration.ZERO;
    }
    Matcher part = GO_PART.matcher(value);
    double nanos = 0;
    int end = 0;
    while (part.find() && part.start() == end) {
      double amount = Double.parseDouble(part.group(1));
      nanos +=
          amount
              * switch (part.group(2)) {
                case "ns" -> 1;
                case "us", "µs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                default -> 3600e9;
              };
      end = part.end();
    }
    if (end == 0 || end != value.length()) {
      throw new IllegalArgumentException("not a Go duration (e.g. 10s, 500ms, 1h30m)");
    }
    return Duration.ofNanos((long) nanos);
  }

  /** logrus level names → logback's; logrus' fatal and panic are logback's ERROR. */
  private String logbackLevel(String level) {
    return switch (level.trim().toLowerCase(Locale.ROOT)) {
      case "trace" -> "TRACE";
      case "debug" -> "DEBUG";
      case "info" -> "INFO";
      case "warn", "warning" -> "WARN";
      case "error", "fatal", "panic" -> "ERROR";
      default -> {
        errors.add("LOG_LEVEL=" + level + ": expected trace, debug, info, warn or error");
        yield "INFO";
      }
    };
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
            "DISABLE_STATS",
            "PROMETHEUS_MAPPER_YAML",
            "PROMETHEUS_RESPONSE_TIME_AS_MILLISECONDS")) {
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
