package dev.sluice.store.redis;

import dev.sluice.config.RedisConfig;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.store.CounterState;
import dev.sluice.store.CounterStore;
import dev.sluice.store.FixedWindow;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import dev.sluice.store.TokenBucketState;
import dev.sluice.store.Usage;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.CommandObjects;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.args.ExpiryOption;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Both algorithms on one Redis (7.0 or newer: {@code EXPIRE ... NX}). Every hit of a request goes
 * into one pipeline, so one round trip per {@link #acquire} when unloaded (two only when Redis has
 * lost the token-bucket script); under load one round trip carries many requests.
 *
 * <p>Fixed window: the key is the prefix, the {@link dev.sluice.store.CounterKey} and the window
 * index on the service clock ({@code fw|60|api|user=alice|29334500}); {@code INCRBY} then {@code
 * EXPIRE key <window seconds> NX}. The expiry is set once per window and never extended; it is a
 * whole window rather than the rest of it, so an instance whose clock lags still finds its counter,
 * and the index in the key keeps a lingering counter from being reused. Token bucket: {@code
 * lua/token_bucket.lua}, on Redis's clock.
 *
 * <p>Connections: {@link RedisConfig#connections} lanes, each one connection with one writer thread
 * ({@link PipelineLane}) that sends whatever requests are queued as one pipeline. A request goes to
 * the lane with the fewest requests queued or in flight, the first on a tie, so light traffic keeps
 * to one warm connection. Each connection caches the token-bucket script when it opens.
 *
 * <p>Thread-safe. {@link #acquire} never blocks: its future completes on a lane thread when the
 * replies arrive, or fails with {@link StoreException} within about the timeout when they do not.
 * Stages chained on it run on that lane thread, so they must be short and must not wait on this
 * store. A failed round trip is not retried, because Redis may have applied it. {@link #ping}
 * blocks.
 */
public final class RedisCounterStore implements CounterStore {
  private static final Logger log = LoggerFactory.getLogger(RedisCounterStore.class);
  private static final LuaScript TOKEN_BUCKET = LuaScript.fromResource("lua/token_bucket.lua");
  private static final int TOKEN_BUCKET_REPLY_SIZE = 4;
  private static final CommandObject<String> PING = new CommandObjects().ping();

  private final Clock clock;
  private final String keyPrefix;
  private final String address;
  private final Duration pingWait;
  private final List<PipelineLane> lanes;

  /**
   * Creates the lanes; nothing connects or runs until {@link #start}.
   *
   * @param clock the service clock, used only for fixed-window indexes
   * @param laneThreads makes one writer thread per connection; the composition root passes the one
   *     {@link dev.sluice.threads.DaemonThreadFactory} ({@code sluice-redis-lane-N})
   */
  public RedisCounterStore(RedisConfig settings, Clock clock, ThreadFactory laneThreads) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.keyPrefix = settings.keyPrefix();
    this.address = settings.endpoint().address();
    // A PING may wait behind a connect and a batch, each bounded by the timeout.
    this.pingWait = settings.timeout().multipliedBy(3).plusSeconds(1);
    RedisConnector connector = new RedisConnector(settings, TOKEN_BUCKET);
    AtomicLong breaks = new AtomicLong();
    List<PipelineLane> opened = new ArrayList<>(settings.connections());
    for (int i = 0; i < settings.connections(); i++) {
      opened.add(new PipelineLane(laneThreads, address, connector, breaks, settings.timeout()));
    }
    this.lanes = List.copyOf(opened);
  }

  /**
   * Connects the lanes, caching the token-bucket script, and starts their writer threads. Does not
   * fail when Redis is unreachable (only logs), so a service can start before its Redis; {@link
   * #ping} tells. Call once.
   */
  public RedisCounterStore start() {
    connectEagerly();
    lanes.forEach(PipelineLane::start);
    return this;
  }

  /** Connects each lane until one fails; the others then connect on their first batch. */
  private void connectEagerly() {
    for (PipelineLane lane : lanes) {
      try {
        lane.connect();
      } catch (JedisException e) {
        log.warn(
            "redis at {}: cannot connect yet ({}); lanes connect on their first request",
            address,
            e.getMessage());
        return;
      }
    }
  }

  @Override
  public CompletableFuture<List<Usage>> acquire(List<Hit> hits) {
    if (hits.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    List<Hit> request = List.copyOf(hits);
    long nowMillis = clock.millis();
    return leastLoadedLane()
        .submit(request.size(), pipeline -> queue(pipeline, request, nowMillis));
  }

  /** The lane with the fewest requests queued or in flight; the first of equals. */
  private PipelineLane leastLoadedLane() {
    PipelineLane best = lanes.get(0);
    int bestLoad = best.load();
    for (int i = 1; i < lanes.size() && bestLoad > 0; i++) {
      int load = lanes.get(i).load();
      if (load < bestLoad) {
        best = lanes.get(i);
        bestLoad = load;
      }
    }
    return best;
  }

  /** Queues every hit of one request; the replies are read in the same order. */
  private PendingRequest.Replies<List<Usage>> queue(
      Pipeline pipeline, List<Hit> hits, long nowMillis) {
    List<Reply> replies = new ArrayList<>(hits.size());
    for (Hit hit : hits) {
      replies.add(
          hit.limit().algorithm() == Algorithm.TOKEN_BUCKET
              ? takeTokens(pipeline, hit)
              : countInWindow(pipeline, hit, nowMillis));
    }
    return new PendingRequest.Replies<>() {
      @Override
      public boolean resendMissingScripts(Pipeline retry) {
        boolean resent = false;
        for (Reply reply : replies) {
          resent |= reply.resendIfNoScript(retry);
        }
        return resent;
      }

      @Override
      public List<Usage> value() {
        List<Usage> usages = new ArrayList<>(replies.size());
        for (Reply reply : replies) {
          usages.add(reply.usage());
        }
        return usages;
      }
    };
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
    return new Reply() {
      @Override
      public boolean resendIfNoScript(Pipeline retry) {
        return call.resendIfNoScript(retry);
      }

      @Override
      public Usage usage() {
        return bucketUsage(call.reply());
      }
    };
  }

  @Override
  public CompletableFuture<CounterState> inspect(Hit hit) {
    return operate(hit, false);
  }

  @Override
  public CompletableFuture<CounterState> reset(Hit hit) {
    return operate(hit, true);
  }

  /**
   * Reads a counter (and deletes it when {@code delete}) in one pipeline. A bucket is read with
   * Redis {@code TIME} in the same round trip and refilled here with the script's arithmetic
   * ({@link TokenBucketState}), so nothing is written by an inspect.
   */
  private CompletableFuture<CounterState> operate(Hit hit, boolean delete) {
    long nowMillis = clock.millis();
    Limit limit = hit.limit();
    if (limit.algorithm() != Algorithm.TOKEN_BUCKET) {
      long windowMillis = limit.unit().millis();
      String key = keyPrefix + hit.key() + "|" + FixedWindow.index(nowMillis, windowMillis);
      Duration untilEnd = FixedWindow.untilEnd(nowMillis, windowMillis);
      return leastLoadedLane()
          .submit(
              1,
              pipeline -> {
                Response<String> count = pipeline.get(key);
                if (delete) {
                  pipeline.del(key);
                }
                return () -> {
                  String value = count.get();
                  long counted = value == null ? 0 : Long.parseLong(value);
                  Usage usage = FixedWindow.usage(counted, limit.requestsPerUnit(), untilEnd);
                  return new CounterState(key, value != null, usage);
                };
              });
    }
    String key = keyPrefix + hit.key();
    return leastLoadedLane()
        .submit(
            1,
            pipeline -> {
              Response<List<String>> state = pipeline.hmget(key, "tokens", "at");
              Response<List<String>> time = pipeline.time();
              if (delete) {
                pipeline.del(key);
              }
              return () -> bucketState(key, limit, state.get(), time.get());
            });
  }

  private static CounterState bucketState(
      String key, Limit limit, List<String> state, List<String> time) {
    long nowMicros = Long.parseLong(time.get(0)) * 1_000_000L + Long.parseLong(time.get(1));
    boolean exists = state.get(0) != null && state.get(1) != null;
    TokenBucketState bucket =
        exists
            ? new TokenBucketState(Double.parseDouble(state.get(0)), Long.parseLong(state.get(1)))
            : TokenBucketState.full(limit, nowMicros);
    return new CounterState(key, exists, bucket.take(limit, 0, nowMicros).usage());
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

  /** Sends PING through a lane, as requests go, and waits for the answer. */
  @Override
  public void ping() {
    CompletableFuture<String> pong =
        leastLoadedLane()
            .submit(
                1,
                pipeline -> {
                  Response<String> reply = pipeline.appendCommand(PING);
                  return reply::get;
                });
    try {
      pong.get(pingWait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof StoreException failure
          ? failure
          : new StoreException("redis at " + address + ": PING failed", e.getCause());
    } catch (TimeoutException e) {
      throw new StoreException("redis at " + address + ": no PONG within " + pingWait, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("redis at " + address + ": interrupted waiting for PONG", e);
    }
  }

  @Override
  public String kind() {
    return "redis";
  }

  /**
   * Stops every lane: a batch in flight finishes (within about the timeout), queued requests fail,
   * the threads end. Idempotent; calls after close fail with {@link StoreException}.
   */
  @Override
  public void close() {
    lanes.forEach(PipelineLane::shutdown);
    lanes.forEach(PipelineLane::close);
  }

  /**
   * The usage of one hit, read from its pipeline replies once the pipeline is synced (and, for a
   * script call that got NOSCRIPT, synced again after {@link #resendIfNoScript}).
   */
  @FunctionalInterface
  private interface Reply {
    Usage usage();

    default boolean resendIfNoScript(Pipeline retry) {
      return false;
    }
  }
}
