package dev.sluice.cli;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.RedisTls;
import dev.sluice.config.Secret;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Where the Redis store is and how Sluice talks to it: address, TLS, timeout, connections, key
 * prefix, and the optional second Redis for per-second limits (the reference's REDIS_PERSECOND).
 * Read only when {@code --store redis}.
 */
final class RedisOptions {
  @Option(
      names = "--redis-url",
      defaultValue = "${env:SLUICE_REDIS_URL:-redis://localhost:6379}",
      converter = Converters.RedisUrlConverter.class,
      description =
          "redis://[user:password@]host:port[/db], rediss://..., unix:///path/redis.sock[?db=N],"
              + " redis-cluster://[user:password@]h1:p1,h2:p2,..., rediss-cluster://...,"
              + " redis-sentinel://[user:password@]h1:p1,h2:p2/MASTER, rediss-sentinel://..."
              + " (env SLUICE_REDIS_URL, default redis://localhost:6379).")
  RedisEndpoint redisUrl;

  @Option(
      names = "--redis-sentinel-password",
      defaultValue = "${env:SLUICE_REDIS_SENTINEL_PASSWORD}",
      description =
          "Password of the sentinels themselves, when they have one (env"
              + " SLUICE_REDIS_SENTINEL_PASSWORD, default none).")
  String redisSentinelPassword;

  @Option(
      names = "--redis-tls-ca",
      defaultValue = "${env:SLUICE_REDIS_TLS_CA}",
      description =
          "PEM CA certificates a TLS Redis must chain to (env SLUICE_REDIS_TLS_CA, default the"
              + " JVM's trust store).")
  Path redisTlsCa;

  @Option(
      names = "--redis-tls-cert",
      defaultValue = "${env:SLUICE_REDIS_TLS_CERT}",
      description =
          "PEM client certificate for TLS Redis, with --redis-tls-key (env SLUICE_REDIS_TLS_CERT,"
              + " default none).")
  Path redisTlsCert;

  @Option(
      names = "--redis-tls-key",
      defaultValue = "${env:SLUICE_REDIS_TLS_KEY}",
      description =
          "PEM private key (PKCS#8 or PKCS#1 RSA) of --redis-tls-cert (env SLUICE_REDIS_TLS_KEY, default none).")
  Path redisTlsKey;

  @Option(
      names = "--redis-tls-insecure",
      defaultValue = "${env:SLUICE_REDIS_TLS_INSECURE:-false}",
      description =
          "Accept any Redis certificate for any host name; logged as a warning (env"
              + " SLUICE_REDIS_TLS_INSECURE, default ${DEFAULT-VALUE}).")
  boolean redisTlsInsecure;

  @Option(
      names = "--redis-timeout",
      defaultValue = "${env:SLUICE_REDIS_TIMEOUT:-100ms}",
      converter = Converters.DurationConverter.class,
      description =
          "Connect and read timeout of one Redis round trip (env SLUICE_REDIS_TIMEOUT, default ${DEFAULT-VALUE}).")
  Duration redisTimeout;

  @Option(
      names = "--redis-connections",
      defaultValue = "${env:SLUICE_REDIS_CONNECTIONS:-2}",
      description =
          "Redis connections, each pipelining many requests (env SLUICE_REDIS_CONNECTIONS, default ${DEFAULT-VALUE}).")
  int redisConnections;

  @Option(
      names = "--redis-key-prefix",
      defaultValue = "${env:SLUICE_REDIS_KEY_PREFIX:-}",
      description = "Prefix of every Redis key (env SLUICE_REDIS_KEY_PREFIX, default none).")
  String keyPrefix;

  @Option(
      names = "--per-second-redis-url",
      defaultValue = "${env:SLUICE_PER_SECOND_REDIS_URL:-}",
      description =
          "A second Redis for limits whose unit is second (the reference's REDIS_PERSECOND), same"
              + " URL forms as --redis-url; TLS files, key prefix, queue and jitter as for"
              + " --redis-url (env SLUICE_PER_SECOND_REDIS_URL, default none: one Redis).")
  String perSecondRedisUrl;

  @Option(
      names = "--per-second-redis-connections",
      defaultValue = "${env:SLUICE_PER_SECOND_REDIS_CONNECTIONS:-2}",
      description =
          "Connections to the per-second Redis (env SLUICE_PER_SECOND_REDIS_CONNECTIONS, default"
              + " ${DEFAULT-VALUE}).")
  int perSecondRedisConnections;

  @Option(
      names = "--per-second-redis-timeout",
      defaultValue = "${env:SLUICE_PER_SECOND_REDIS_TIMEOUT:-100ms}",
      converter = Converters.DurationConverter.class,
      description =
          "Connect and read timeout of the per-second Redis (env SLUICE_PER_SECOND_REDIS_TIMEOUT,"
              + " default ${DEFAULT-VALUE}).")
  Duration perSecondRedisTimeout;

  @Option(
      names = "--per-second-redis-sentinel-password",
      defaultValue = "${env:SLUICE_PER_SECOND_REDIS_SENTINEL_PASSWORD}",
      description =
          "Password of the per-second Redis's sentinels (env"
              + " SLUICE_PER_SECOND_REDIS_SENTINEL_PASSWORD, default none).")
  String perSecondRedisSentinelPassword;

  @Option(
      names = "--expiration-jitter",
      defaultValue = "${env:SLUICE_EXPIRATION_JITTER:-0s}",
      converter = Converters.DurationConverter.class,
      description =
          "Redis: each fixed-window counter expires up to this much later, at random, so a"
              + " window's counters do not all expire in the same second (env"
              + " SLUICE_EXPIRATION_JITTER, default ${DEFAULT-VALUE}).")
  Duration expirationJitter;

  /** The main Redis; {@code maxQueuedHits} comes from the overload options. */
  RedisConfig toConfig(int maxQueuedHits) {
    return new RedisConfig(
        redisUrl,
        new RedisTls(
            Optional.ofNullable(redisTlsCa),
            Optional.ofNullable(redisTlsCert),
            Optional.ofNullable(redisTlsKey),
            redisTlsInsecure),
        Optional.ofNullable(redisSentinelPassword).map(Secret::of),
        redisTimeout,
        redisConnections,
        keyPrefix,
        maxQueuedHits,
        expirationJitter);
  }

  /** The per-second Redis: the main one's settings, with its own address, pool and timeout. */
  Optional<RedisConfig> perSecond(RedisConfig main) {
    if (perSecondRedisUrl.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new RedisConfig(
            RedisEndpoint.parse(perSecondRedisUrl),
            main.tls(),
            Optional.ofNullable(perSecondRedisSentinelPassword).map(Secret::of),
            perSecondRedisTimeout,
            perSecondRedisConnections,
            main.keyPrefix(),
            main.maxQueuedHits(),
            main.expirationJitter()));
  }
}
