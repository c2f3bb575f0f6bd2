package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the Redis store connects. Validated here completely, so a value accepted here never fails
 * later when the store opens.
 *
 * @param endpoint where Redis is, parsed from {@code --redis-url}
 * @param tls how {@code rediss...} connections trust the server and prove the client
 * @param sentinelPassword what the sentinels themselves require ({@code
 *     --redis-sentinel-password}), when they have a password of their own
 * @param timeout both the connect timeout and the socket (reply) timeout, 1 ms to {@code
 *     Integer.MAX_VALUE} ms (Jedis takes int milliseconds): a request whose pipeline gets no reply
 *     within it (counted from when the pipeline was written) fails
 * @param connections how many connections the store keeps to each master, at least 1; each is a
 *     lane with one writer thread that sends everything queued for it as one pipeline, so a few (2
 *     to 4) serve any load and more only spread requests thinner across round trips
 * @param keyPrefix prepended to every key the store writes, so several deployments can share one
 *     Redis; may be empty, never null
 * @param maxQueuedHits hits (counted descriptors) one connection holds waiting or in flight, at
 *     least 1; a request that would go past it is shed at once ("shed: store queue full") instead
 *     of queueing up to time out
 * @param expirationJitter the most a fixed-window counter's expiry is extended by, chosen at random
 *     per counter (0 to this, in milliseconds), so the counters of one window do not all expire in
 *     the same second (the reference's EXPIRATION_JITTER_MAX_SECONDS); zero turns it off
 */
public record RedisConfig(
    RedisEndpoint endpoint,
    RedisTls tls,
    Optional<Secret> sentinelPassword,
    Duration timeout,
    int connections,
    String keyPrefix,
    int maxQueuedHits,
    Duration expirationJitter) {
  /**
   * Above the stalls of a busy node, so that a slow reply is not failed (issue 11.12: with 10 ms,
   * 1-20 % of calls failed on 2 shared cores while Redis was healthy); a hung or dead Redis is the
   * breaker's to catch, and Envoy's own filter timeout bounds what a caller waits.
   */
  public static final Duration DEFAULT_TIMEOUT = RedisSettings.REDIS_TIMEOUT.defaultValue();

  public static final int DEFAULT_CONNECTIONS = RedisSettings.REDIS_CONNECTIONS.defaultValue();

  /**
   * Two full pipelines (512 hits each) per connection: one in flight, one filling. More would only
   * make requests wait longer behind others, and a queue of round trips is a queue of timeouts.
   */
  public static final int DEFAULT_MAX_QUEUED_HITS =
      OverloadSettings.REDIS_MAX_QUEUED_HITS.defaultValue();

  public RedisConfig {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(sentinelPassword, "sentinelPassword");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(keyPrefix, "keyPrefix");
    if (timeout.compareTo(Duration.ofMillis(1)) < 0
        || timeout.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException(
          "redis timeout must be between 1ms and " + Integer.MAX_VALUE + "ms: " + timeout);
    }
    if (maxQueuedHits < 1) {
      throw new IllegalArgumentException("redis max queued hits must be >= 1: " + maxQueuedHits);
    }
    if (connections < 1) {
      throw new IllegalArgumentException("redis connections must be >= 1: " + connections);
    }
    Objects.requireNonNull(expirationJitter, "expirationJitter");
    if (expirationJitter.isNegative()) {
      throw new IllegalArgumentException("expiration jitter must be >= 0: " + expirationJitter);
    }
  }

  /**
   * A builder for {@code endpoint} with every other part at its default: default TLS, no sentinel
   * password, the default timeout, connections and queue bound, no key prefix, no jitter.
   */
  public static Builder builder(RedisEndpoint endpoint) {
    Builder builder = new Builder();
    builder.endpoint = endpoint;
    builder.tls = RedisTls.DEFAULTS;
    builder.sentinelPassword = Optional.empty();
    builder.timeout = DEFAULT_TIMEOUT;
    builder.connections = DEFAULT_CONNECTIONS;
    builder.keyPrefix = "";
    builder.maxQueuedHits = DEFAULT_MAX_QUEUED_HITS;
    builder.expirationJitter = Duration.ZERO;
    return builder;
  }

  /** {@code url} with the default timeout and connections, no key prefix. */
  public static RedisConfig of(String url) {
    return builder(RedisEndpoint.parse(url)).build();
  }

  /** The default {@code redis://localhost:6379}. */
  public static RedisConfig defaults() {
    return of("redis://localhost:6379");
  }

  /** The main Redis, from the declared settings. */
  public static RedisConfig from(SettingValues values) {
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
        values.get(OverloadSettings.REDIS_MAX_QUEUED_HITS),
        values.get(RedisSettings.EXPIRATION_JITTER));
  }

  /** The per-second Redis: the main one's settings, with its own address, pool and timeout. */
  static Optional<RedisConfig> perSecondFrom(SettingValues values, RedisConfig main) {
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

  /** A builder holding this configuration, to change some of its parts. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.endpoint = endpoint;
    builder.tls = tls;
    builder.sentinelPassword = sentinelPassword;
    builder.timeout = timeout;
    builder.connections = connections;
    builder.keyPrefix = keyPrefix;
    builder.maxQueuedHits = maxQueuedHits;
    builder.expirationJitter = expirationJitter;
    return builder;
  }

  /**
   * Collects the parts of a {@link RedisConfig}; {@link #build} validates them. Not thread-safe.
   */
  public static final class Builder {
    private RedisEndpoint endpoint;
    private RedisTls tls;
    private Optional<Secret> sentinelPassword;
    private Duration timeout;
    private int connections;
    private String keyPrefix;
    private int maxQueuedHits;
    private Duration expirationJitter;

    private Builder() {}

    public Builder endpoint(RedisEndpoint value) {
      this.endpoint = value;
      return this;
    }

    public Builder tls(RedisTls value) {
      this.tls = value;
      return this;
    }

    public Builder sentinelPassword(Optional<Secret> value) {
      this.sentinelPassword = value;
      return this;
    }

    public Builder timeout(Duration value) {
      this.timeout = value;
      return this;
    }

    public Builder connections(int value) {
      this.connections = value;
      return this;
    }

    public Builder keyPrefix(String value) {
      this.keyPrefix = value;
      return this;
    }

    public Builder maxQueuedHits(int value) {
      this.maxQueuedHits = value;
      return this;
    }

    public Builder expirationJitter(Duration value) {
      this.expirationJitter = value;
      return this;
    }

    public RedisConfig build() {
      return new RedisConfig(
          endpoint,
          tls,
          sentinelPassword,
          timeout,
          connections,
          keyPrefix,
          maxQueuedHits,
          expirationJitter);
    }
  }
}
