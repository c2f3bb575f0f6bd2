package dev.sluice.store.redis;

import dev.sluice.config.RedisConfig;
import dev.sluice.store.CounterState;
import dev.sluice.store.CounterStore;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.CountingAlgorithm;
import dev.sluice.store.algorithm.RedisBatch;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import redis.clients.jedis.exceptions.JedisException;

/**
 * Every algorithm on one Redis (7.0 or newer: {@code EXPIRE ... NX}). Every hit of a request goes
 * into one pipeline, so one round trip per {@link #acquire} when unloaded (two only when Redis has
 * lost a script); under load one round trip carries many requests. What each hit sends is its
 * {@link CountingAlgorithm}'s business ({@link CountingAlgorithm#takeOnRedis}), queued on a {@link
 * PipelineBatch}; this class only picks a lane.
 *
 * <p>Connections: {@link RedisConfig#connections} lanes, each one connection with one writer thread
 * ({@link PipelineLane}) that sends whatever requests are queued as one pipeline. A request goes to
 * the lane with the fewest requests queued or in flight, the first on a tie, so light traffic keeps
 * to one warm connection. Each connection caches every algorithm's script when it opens.
 *
 * <p>Thread-safe. {@link #acquire} never blocks: its future completes on a lane thread when the
 * replies arrive, or fails with {@link StoreException} within about the timeout when they do not.
 * Stages chained on it run on that lane thread, so they must be short and must not wait on this
 * store. A failed round trip is not retried, because Redis may have applied it. {@link #ping}
 * blocks.
 */
public final class RedisCounterStore implements CounterStore {
  private static final Logger log = LoggerFactory.getLogger(RedisCounterStore.class);
  private static final Map<String, LuaScript> SCRIPTS = loadScripts();
  private static final CommandObject<String> PING = new CommandObjects().ping();

  private final Clock clock;
  private final String keyPrefix;
  private final String address;
  private final Duration pingWait;
  private final List<PipelineLane> lanes;
  private final Map<String, LuaScript> scripts = SCRIPTS;

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
    RedisConnector connector = new RedisConnector(settings, List.copyOf(SCRIPTS.values()));
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

  private static Map<String, LuaScript> loadScripts() {
    Map<String, LuaScript> scripts = new LinkedHashMap<>();
    for (String resource : RedisBatch.SCRIPTS) {
      scripts.put(resource, LuaScript.fromResource(resource));
    }
    return Map.copyOf(scripts);
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
    PipelineBatch batch = new PipelineBatch(pipeline, keyPrefix, scripts);
    List<RedisBatch.Reply<Usage>> replies = new ArrayList<>(hits.size());
    for (Hit hit : hits) {
      replies.add(CountingAlgorithm.of(hit.limit().algorithm()).takeOnRedis(batch, hit, nowMillis));
    }
    return batch.replies(
        () -> {
          List<Usage> usages = new ArrayList<>(replies.size());
          for (RedisBatch.Reply<Usage> reply : replies) {
            usages.add(reply.get());
          }
          return usages;
        });
  }

  @Override
  public CompletableFuture<CounterState> inspect(Hit hit) {
    return operate(hit, false);
  }

  @Override
  public CompletableFuture<CounterState> reset(Hit hit) {
    return operate(hit, true);
  }

  /** Reads a counter (and deletes it when {@code delete}) in one pipeline. */
  private CompletableFuture<CounterState> operate(Hit hit, boolean delete) {
    long nowMillis = clock.millis();
    CountingAlgorithm algorithm = CountingAlgorithm.of(hit.limit().algorithm());
    return leastLoadedLane()
        .submit(
            1,
            pipeline -> {
              PipelineBatch batch = new PipelineBatch(pipeline, keyPrefix, scripts);
              return batch.replies(algorithm.readOnRedis(batch, hit, nowMillis, delete));
            });
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
}
