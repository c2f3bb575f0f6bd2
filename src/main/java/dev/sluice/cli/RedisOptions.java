package dev.sluice.cli;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.RedisSettings;
import dev.sluice.config.RedisTls;
import dev.sluice.config.Secret;
import dev.sluice.config.SettingValues;
import java.util.Optional;

/**
 * Where the Redis store is and how Sluice talks to it: address, TLS, timeout, connections, key
 * prefix, and the optional second Redis for per-second limits (the reference's REDIS_PERSECOND).
 * Read only when {@code --store redis}.
 */
final class RedisOptions {
  private final SettingValues values;

  RedisOptions(SettingValues values) {
    this.values = values;
  }

  /** The main Redis; {@code maxQueuedHits} comes from the overload options. */
  RedisConfig toConfig(int maxQueuedHits) {
    return new RedisConfig(
        values.get(RedisSettings.REDIS_URL),
        new RedisTls(
            Optional.ofNullable(values.get(RedisSettings.REDIS_TLS_CA)),
            Optional.ofNullable(values.get(RedisSettings.REDIS_TLS_CERT)),
            Optional.ofNullable(values.get(RedisSettings.REDIS_TLS_KEY)),
            values.get(RedisSettings.REDIS_TLS_INSECURE)),
        Optional.ofNullable(values.get(RedisSettings.REDIS_SENTINEL_PASSWORD)).map(Secret::of),
        values.get(RedisSettings.REDIS_TIMEOUT),
        values.get(RedisSettings.REDIS_CONNECTIONS),
        values.get(RedisSettings.REDIS_KEY_PREFIX),
        maxQueuedHits,
        values.get(RedisSettings.EXPIRATION_JITTER));
  }

  /** The per-second Redis: the main one's settings, with its own address, pool and timeout. */
  Optional<RedisConfig> perSecond(RedisConfig main) {
    if (values.get(RedisSettings.PER_SECOND_REDIS_URL).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new RedisConfig(
            RedisEndpoint.parse(values.get(RedisSettings.PER_SECOND_REDIS_URL)),
            main.tls(),
            Optional.ofNullable(values.get(RedisSettings.PER_SECOND_REDIS_SENTINEL_PASSWORD))
                .map(Secret::of),
            values.get(RedisSettings.PER_SECOND_REDIS_TIMEOUT),
            values.get(RedisSettings.PER_SECOND_REDIS_CONNECTIONS),
            main.keyPrefix(),
            main.maxQueuedHits(),
            main.expirationJitter()));
  }
}
