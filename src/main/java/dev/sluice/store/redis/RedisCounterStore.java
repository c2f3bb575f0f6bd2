package dev.sluice.store.redis;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.store.CounterStore;
import dev.sluice.store.FixedWindow;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.args.ExpiryOption;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Both algorithms on one Redis (7.0 or newer: {@code EXPIRE ... NX}), every hit of a request in one
 * pipeline, so one round trip per {@link #acquire} (two only when Redis has lost the token-bucket
 * script).
 *
 * <p>Fixed window: the key is the prefix, the {@link dev.sluice.store.CounterKey} and the window
 * index on the service clock ({@code fw|60|api|user=alice|29334500}); {@code INCRBY} then {@code
 * EXPIRE key <window seconds> NX}. The expiry is set once per window and never extended; it is a
 * whole window rather than the rest of it, so an instance whose clock lags still finds its counter,
 * and the index in the key keeps a lingering counter from being reused. Token bucket: {@code
 * lua/token_bucket.lua}, on Redis's clock.
 *
 * <p>Thread-safe: each call borrows its own pooled connection and the store keeps no other mutable
 * state. {@link #acquire} and {@link #ping} block the calling thread for the round trip, at most
 * about the configured timeout. A failed round trip is not retried, because Redis may have applied
 * it.
 */
public final class RedisCounterStore implements CounterStore {
  private static final Logger log = LoggerFactory.getLogger(RedisCounterStore.class);
  private static final LuaScript TOKEN_BUCKET = LuaScript.fromResource("lua/token_bucket.lua");
  private static final int TOKEN_BUCKET_REPLY_SIZE = 4;

  private final RedisClient redis;
  private final Clock clock;
  private final String keyPrefix;
  private final String address;

  /**
   * Creates the connection pool and caches the token-bucket script. Does not fail when Redis is
   * unreachable (only logs), so a service can start before its Redis; {@link #ping} tells.
   *
   * @param clock the service clock, used only for fixed-window indexes
   */
  public RedisCounterStore(RedisSettings settings, Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.keyPrefix = settings.keyPrefix();
    this.address = settings.address();
    this.redis =
        RedisClient.builder()
            .hostAndPort(settings.host(), settings.port())
            .clientConfig(clientConfig(settings))
            .poolConfig(poolConfig(settings))
            .build();
    try {
      TOKEN_BUCKET.scriptLoad(redis);
    } catch (JedisException e) {
      log.warn(
          "redis at {}: cannot load {} yet ({}); it will be sent with EVAL when needed",
          address,
          TOKEN_BUCKET.resource(),
          e.getMessage());
    }
  }

  @Override
  public CompletableFuture<List<Usage>> acquire(List<Hit> hits) {
    if (hits.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    try {
      return CompletableFuture.completedFuture(apply(hits));
    } catch (JedisException e) {
      return CompletableFuture.failedFuture(failure("acquire", e));
    } catch (StoreException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Queues every hit in one pipeline, sends it, then reads the replies in order. */
  private List<Usage> apply(List<Hit> hits) {
    long nowMillis = clock.millis();
    List<Reply> replies = new ArrayList<>(hits.size());
    try (Pipeline pipeline = redis.pipelined()) {
      for (Hit hit : hits) {
        replies.add(
            hit.limit().algorithm() == Algorithm.TOKEN_BUCKET
                ? takeTokens(pipeline, hit)
                : countInWindow(pipeline, hit, nowMillis));
      }
      pipeline.sync();
    }
    List<Usage> usages = new ArrayList<>(hits.size());
    for (Reply reply : replies) {
      usages.add(reply.usage());
    }
    return usages;
  }

  private Reply countInWindow(Pipeline pipeline, Hit hit, long nowMillis) {
    Limit limit = hit.limit();
    long windowMillis = limit.unit().millis();
    String key = keyPrefix + hit.key() + "|" + FixedWindow.index(nowMillis, windowMillis);
    Response<Long> count = pipeline.incrBy(key, hit.hits());
    Response<Long> expiry = pipeline.expire(key, limit.unit().seconds(), ExpiryOption.NX);
    Duration untilEnd = FixedWindow.untilEnd(nowMillis, windowMillis);
    return () -> {
      // Read only to surface an error (e.g. a Redis too old for NX) instead of a key without TTL.
      expiry.get();
      return FixedWindow.usage(count.get(), limit.requestsPerUnit(), untilEnd);
    };
  }

  private Reply takeTokens(Pipeline pipeline, Hit hit) {
    Limit limit = hit.limit();
    List<String> args =
        List.of(
            Long.toString(limit.burst()),
            Long.toString(limit.requestsPerUnit()),
            Long.toString(limit.unit().seconds()),
            Long.toString(hit.hits()));
    LuaScript.Call call = TOKEN_BUCKET.send(pipeline, List.of(keyPrefix + hit.key()), args);
    return () -> bucketUsage(call.reply(redis));
  }

  /** Reads the script's {@code {allowed, tokens, reset micros, count}} reply. */
  private Usage bucketUsage(Object reply) {
    if (!(reply instanceof List<?> values)
        || values.size() != TOKEN_BUCKET_REPLY_SIZE
        || !values.stream().allMatch(Long.class::isInstance)) {
      throw new StoreException(
          "redis at " + address + ": unexpected " + TOKEN_BUCKET.resource() + " reply: " + reply);
    }
    boolean allowed = (Long) values.get(0) == 1L;
    long tokens = (Long) values.get(1);
    Duration untilReset = Duration.of((Long) values.get(2), ChronoUnit.MICROS);
    return new Usage(!allowed, tokens, untilReset, (Long) values.get(3));
  }

  @Override
  public void ping() {
    try {
      redis.ping();
    } catch (JedisException e) {
      throw failure("PING", e);
    }
  }

  @Override
  public String kind() {
    return "redis";
  }

  /** Closes the pool; idempotent. Calls after close fail with {@link StoreException}. */
  @Override
  public void close() {
    redis.close();
  }

  private StoreException failure(String what, JedisException e) {
    return new StoreException(
        "redis at " + address + ": " + what + " failed: " + e.getMessage(), e);
  }

  private static JedisClientConfig clientConfig(RedisSettings settings) {
    int timeoutMillis = (int) settings.timeout().toMillis();
    return DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(timeoutMillis)
        .socketTimeoutMillis(timeoutMillis)
        .user(settings.user().orElse(null))
        .password(settings.password().orElse(null))
        .database(settings.database())
        .ssl(settings.tls())
        .clientName("sluice")
        .build();
  }

  private static ConnectionPoolConfig poolConfig(RedisSettings settings) {
    ConnectionPoolConfig pool = new ConnectionPoolConfig();
    pool.setMaxTotal(settings.poolSize());
    pool.setMaxIdle(settings.poolSize());
    pool.setMinIdle(0);
    pool.setBlockWhenExhausted(true);
    pool.setMaxWait(settings.timeout());
    pool.setJmxEnabled(false);
    return pool;
  }

  /** The usage of one hit, read from its pipeline replies once the pipeline is synced. */
  @FunctionalInterface
  private interface Reply {
    Usage usage();
  }
}
