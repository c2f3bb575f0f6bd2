package dev.sluice.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Where the Redis store is and how Sluice talks to it, and the optional per-second Redis. */
public final class RedisSettings {
  public static final Setting<RedisEndpoint> REDIS_URL =
      Setting.of(
          "--redis-url",
          "SLUICE_REDIS_URL",
          "redis://localhost:6379",
          RedisEndpoint::parse,
          "redis://[user:password@]host:port[/db], rediss://..., unix:///path/redis.sock[?db=N], redis-cluster://[user:password@]h1:p1,h2:p2,..., rediss-cluster://..., redis-sentinel://[user:password@]h1:p1,h2:p2/MASTER, rediss-sentinel://");

  public static final Setting<String> REDIS_SENTINEL_PASSWORD =
      Setting.unsetText(
          "--redis-sentinel-password",
          "SLUICE_REDIS_SENTINEL_PASSWORD",
          "Password of the sentinels themselves, when they have one");

  public static final Setting<Path> REDIS_TLS_CA =
      Setting.path(
          "--redis-tls-ca",
          "SLUICE_REDIS_TLS_CA",
          "PEM CA certificates a TLS Redis must chain to; unset: the JVM's trust store");

  public static final Setting<Path> REDIS_TLS_CERT =
      Setting.path(
          "--redis-tls-cert",
          "SLUICE_REDIS_TLS_CERT",
          "PEM client certificate for TLS Redis, with --redis-tls-key");

  public static final Setting<Path> REDIS_TLS_KEY =
      Setting.path(
          "--redis-tls-key",
          "SLUICE_REDIS_TLS_KEY",
          "PEM private key (PKCS#8 or PKCS#1 RSA) of --redis-tls-cert");

  public static final Setting<Boolean> REDIS_TLS_INSECURE =
      Setting.bool(
          "--redis-tls-insecure",
          "SLUICE_REDIS_TLS_INSECURE",
          false,
          "Accept any Redis certificate for any host name; logged as a warning");

  public static final Setting<Duration> REDIS_TIMEOUT =
      Setting.duration(
          "--redis-timeout",
          "SLUICE_REDIS_TIMEOUT",
          "100ms",
          "Connect and read timeout of one Redis round trip");

  public static final Setting<Integer> REDIS_CONNECTIONS =
      Setting.integer(
          "--redis-connections",
          "SLUICE_REDIS_CONNECTIONS",
          "2",
          "Redis connections, each pipelining many requests");

  public static final Setting<String> REDIS_KEY_PREFIX =
      Setting.text(
          "--redis-key-prefix", "SLUICE_REDIS_KEY_PREFIX", "", "Prefix of every Redis key");

  public static final Setting<String> PER_SECOND_REDIS_URL =
      Setting.text(
          "--per-second-redis-url",
          "SLUICE_PER_SECOND_REDIS_URL",
          "",
          "A second Redis for limits whose unit is second (the reference's REDIS_PERSECOND), same URL forms as --redis-url; TLS files, key prefix, queue and jitter as for --redis-url");

  public static final Setting<Integer> PER_SECOND_REDIS_CONNECTIONS =
      Setting.integer(
          "--per-second-redis-connections",
          "SLUICE_PER_SECOND_REDIS_CONNECTIONS",
          "2",
          "Connections to the per-second Redis");

  public static final Setting<Duration> PER_SECOND_REDIS_TIMEOUT =
      Setting.duration(
          "--per-second-redis-timeout",
          "SLUICE_PER_SECOND_REDIS_TIMEOUT",
          "100ms",
          "Connect and read timeout of the per-second Redis");

  public static final Setting<String> PER_SECOND_REDIS_SENTINEL_PASSWORD =
      Setting.unsetText(
          "--per-second-redis-sentinel-password",
          "SLUICE_PER_SECOND_REDIS_SENTINEL_PASSWORD",
          "Password of the per-second Redis's sentinels");

  public static final Setting<Duration> EXPIRATION_JITTER =
      Setting.duration(
          "--expiration-jitter",
          "SLUICE_EXPIRATION_JITTER",
          "0s",
          "Redis: each fixed-window counter expires up to this much later, at random, so a window's counters do not all expire in the same second");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(
          REDIS_URL,
          REDIS_SENTINEL_PASSWORD,
          REDIS_TLS_CA,
          REDIS_TLS_CERT,
          REDIS_TLS_KEY,
          REDIS_TLS_INSECURE,
          REDIS_TIMEOUT,
          REDIS_CONNECTIONS,
          REDIS_KEY_PREFIX,
          PER_SECOND_REDIS_URL,
          PER_SECOND_REDIS_CONNECTIONS,
          PER_SECOND_REDIS_TIMEOUT,
          PER_SECOND_REDIS_SENTINEL_PASSWORD,
          EXPIRATION_JITTER);

  private RedisSettings() {}
}
