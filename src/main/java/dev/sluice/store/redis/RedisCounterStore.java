package dev.sluice.store.redis;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.BatchTrace;
import dev.sluice.store.Charge;
import dev.sluice.store.Charged;
import dev.sluice.store.CounterState;
import dev.sluice.store.CounterStore;
import dev.sluice.store.CounterSync;
import dev.sluice.store.DatedHit;
import dev.sluice.store.Hit;
import dev.sluice.store.Patience;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.CountingAlgorithm;
import dev.sluice.store.algorithm.RedisBatch;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
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
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.CommandObjects;
import redis.clients.jedis.Response;

/**
 * Every algorithm on Redis (7.0 or newer: {@code EXPIRE ... NX}): one server, the master a sentinel
 * setup names, or a cluster. A request's hits are grouped by the node that holds them ({@link
 * NodeRouting}); each group goes into one pipeline, so one round trip per node per {@link #charge}
 * when unloaded (two only when Redis has lost a script), all nodes at once; under load one round
 * trip carries many requests. What each hit sends is its {@link CountingAlgorithm}'s business
 * ({@link CountingAlgorithm#takeOnRedis}), queued on a {@link PipelineBatch} whose keys come from
 * the routing (on a cluster with a hash tag); {@link HitDispatch} sends the groups and follows a
 * cluster's MOVED and ASK replies (safe: a redirected command did not run).
 *
 * <p>Connections: {@link RedisConfig#connections} lanes per node, each one connection with one
 * writer thread ({@link PipelineLane}) that sends whatever requests are queued as one pipeline.
 * Each connection caches every algorithm's script when it opens.
 *
 * <p>Thread-safe. {@link #charge} does not wait for Redis (on a cluster it may refresh a stale slot
 * map first, at most every 100 ms, one caller at a time): its future completes on a lane thread
 * when the replies arrive, or fails with {@link StoreException} within about the timeout when they
 * do not. Stages chained on it run on that lane thread, so they must be short and must not wait on
 * this store. A failed round trip is not retried, because Redis may have applied it. {@link #ping}
 * blocks.
 */
public final class RedisCounterStore implements CounterStore, CounterSync {
  private static final Map<String, LuaScript> SCRIPTS = loadScripts();
  private static final CommandObject<String> PING = new CommandObjects().ping();

  /** The sorted set of live instances ({@code lua/instances.lua}), beside the counters. */
  static final String INSTANCES_KEY = "instances";

  /** Only routes {@link #INSTANCES_KEY} to its node; nothing is counted against it. */
  private static final Hit INSTANCES_ANCHOR =
      new Hit(INSTANCES_KEY, Limit.of(0, Unit.SECOND, Algorithm.FIXED_WINDOW), 0);

  private final Clock clock;
  private final String address;
  private final Duration pingWait;
  private final NodeRouting routing;
  private final HitDispatch dispatch;
  private final ScriptedCharge charges;

  /**
   * Creates the lanes; nothing connects or runs until {@link #start}.
   *
   * @param clock the service clock, used only for fixed-window indexes
   * @param laneThreads makes one writer thread per connection; the composition root passes the one
   *     {@link dev.sluice.threads.DaemonThreadFactory} ({@code sluice-redis-lane-N})
   */
  public RedisCounterStore(RedisConfig settings, Clock clock, ThreadFactory laneThreads) {
    this(settings, clock, laneThreads, LaneHooks.NONE);
  }

  /**
   * @param trace told about every pipeline a lane sends (tracing's one span per shared round trip)
   */
  public RedisCounterStore(
      RedisConfig settings, Clock clock, ThreadFactory laneThreads, BatchTrace trace) {
    this(settings, clock, laneThreads, new LaneHooks(trace, Patience.Source.NONE));
  }

  /**
   * @param hooks the trace told about every pipeline a lane sends (tracing's one span per shared
   *     round trip), and the callers' patience: a request whose caller stopped waiting is never
   *     written to Redis (it fails with {@link dev.sluice.store.StoreExpiredException})
   */
  public RedisCounterStore(
      RedisConfig settings, Clock clock, ThreadFactory laneThreads, LaneHooks hooks) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.address = settings.endpoint().address();
    // A PING may wait behind a connect and a batch, each bounded by the timeout.
    this.pingWait = settings.timeout().multipliedBy(3).plusSeconds(1);
    RedisConnector connector = new RedisConnector(settings, List.copyOf(SCRIPTS.values()));
    this.routing =
        routing(
            settings,
            connector,
            address,
            new Lanes.Spec(
                laneThreads,
                settings.connections(),
                settings.timeout(),
                settings.maxQueuedHits(),
                hooks));
    this.dispatch = new HitDispatch(routing, SCRIPTS, settings);
    this.charges =
        new ScriptedCharge(dispatch, settings.endpoint() instanceof RedisEndpoint.Cluster);
  }

  /**
   * Connects the lanes, caching the scripts, and starts their writer threads (on a cluster: asks
   * for the slot map; each master's lanes start when it is first used). Does not fail when Redis is
   * unreachable (only logs), so a service can start before its Redis; {@link #ping} tells. Call
   * once.
   */
  public RedisCounterStore start() {
    routing.start();
    return this;
  }

  private static Map<String, LuaScript> loadScripts() {
    Map<String, LuaScript> scripts = new LinkedHashMap<>();
    for (String resource : RedisBatch.SCRIPTS) {
      scripts.put(resource, LuaScript.fromResource(resource));
    }
    return Map.copyOf(scripts);
  }

  private static NodeRouting routing(
      RedisConfig settings, RedisConnector connector, String address, Lanes.Spec lanes) {
    if (settings.endpoint() instanceof RedisEndpoint.Cluster cluster) {
      return new ClusterRouting(connector, cluster, lanes);
    }
    AtomicLong breaks = new AtomicLong();
    RedisTopology topology =
        new RedisTopology(connector, settings.endpoint(), breaks, lanes.threads());
    // One node holds every key, so each lane combines a batch's calls of each batch-form script
    // (token bucket, sliding window) into one.
    List<CoalescedScript.Form> coalesced =
        RedisBatch.COALESCED_SCRIPTS.entrySet().stream()
            .map(e -> new CoalescedScript.Form(SCRIPTS.get(e.getKey()), e.getValue()))
            .toList();
    return new SingleNodeRouting(
        lanes.create(new Lanes.Node(address, topology, breaks, coalesced)), topology);
  }

  /** Each hit by its own algorithm's commands, all in one dispatch. */
  private CompletableFuture<List<Usage>> sendEach(List<Hit> hits) {
    if (hits.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    long nowMillis = clock.millis();
    return dispatch.send(
        List.copyOf(hits),
        (batch, hit) ->
            CountingAlgorithm.of(hit.limit().algorithm()).takeOnRedis(batch, hit, nowMillis));
  }

  /**
   * One dispatch, so one pipeline per node, however many windows the hits are dated in: each hit is
   * counted by its algorithm as of its own {@link DatedHit#atMillis}.
   */
  @Override
  public CompletableFuture<List<Usage>> addDated(List<DatedHit> hits) {
    if (hits.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    // By identity: two deltas of one counter in two windows can be equal records.
    Map<Hit, Long> at = new IdentityHashMap<>();
    List<Hit> request = new ArrayList<>(hits.size());
    for (DatedHit dated : hits) {
      at.put(dated.hit(), dated.atMillis());
      request.add(dated.hit());
    }
    return dispatch.send(
        request,
        (batch, hit) ->
            CountingAlgorithm.of(hit.limit().algorithm()).takeOnRedis(batch, hit, at.get(hit)));
  }

  /** {@code lua/instances.lua} on the node holding the instance set. */
  @Override
  public CompletableFuture<Long> heartbeat(String instance, Duration ttl) {
    List<String> args = List.of(instance, Long.toString(ttl.toMillis()));
    return dispatch
        .send(
            List.of(INSTANCES_ANCHOR),
            (batch, hit) -> {
              RedisBatch.Reply<Object> reply =
                  batch.script(
                      RedisBatch.INSTANCES_SCRIPT, List.of(batch.key(INSTANCES_KEY)), args);
              return () -> (Long) reply.get();
            })
        .thenApply(live -> live.get(0));
  }

  /**
   * Always {@link Charged.Later}: independent hits go as {@link #sendEach} sends them; several
   * limits on one descriptor and {@code charge_denied: false} as {@link ScriptedCharge} does.
   */
  @Override
  public Charged charge(Charge charge) {
    if (charge.perHit()) {
      return new Charged.Later(sendEach(charge.hits()));
    }
    return new Charged.Later(charges.acquire(charge, clock.millis()));
  }

  @Override
  public CompletableFuture<CounterState> inspect(Hit hit) {
    return operate(hit, false);
  }

  @Override
  public CompletableFuture<CounterState> reset(Hit hit) {
    return operate(hit, true);
  }

  /** Reads a counter (and deletes it when {@code delete}) in one pipeline, on its node. */
  private CompletableFuture<CounterState> operate(Hit hit, boolean delete) {
    long nowMillis = clock.millis();
    CountingAlgorithm algorithm = CountingAlgorithm.of(hit.limit().algorithm());
    return dispatch
        .send(List.of(hit), (batch, each) -> algorithm.readOnRedis(batch, each, nowMillis, delete))
        .thenApply(states -> states.get(0));
  }

  /**
   * Checks the topology (on a cluster: every slot has a master), then sends PING through a lane of
   * every node, as requests go, and waits for the answers.
   */
  @Override
  public void ping() {
    for (PipelineLane lane : routing.checkedLanes()) {
      ping(lane);
    }
  }

  private void ping(PipelineLane lane) {
    CompletableFuture<String> pong =
        lane.submit(
            1,
            lanePipeline -> {
              Response<String> reply = lanePipeline.pipeline().appendCommand(PING);
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
    routing.close();
  }
}
