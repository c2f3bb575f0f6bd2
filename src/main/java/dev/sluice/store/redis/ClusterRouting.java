package dev.sluice.store.redis;

import dev.sluice.config.RedisEndpoint;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClusterInfoCache;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisMovedDataException;
import redis.clients.jedis.exceptions.JedisRedirectionException;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A Redis Cluster: Jedis's {@link JedisClusterInfoCache} keeps the slot map (discovered from the
 * seeds; a MOVED slot is reassigned at once, and after a MOVED or a failed node the whole map is
 * refreshed by the next request, at most every {@link #REFRESH_NANOS}); each master gets its own
 * lanes, opened when the slot map first names it. A request's hits are grouped by master and each
 * group is one pipelined round trip on one of that master's lanes, sent in parallel, so a request
 * costs one round trip whatever the number of nodes; requests for the same master still share
 * pipelines. Keys carry a hash tag around the counter key, so every key one hit uses is in one
 * slot. Thread-safe.
 */
final class ClusterRouting implements NodeRouting {
  private static final Logger log = LoggerFactory.getLogger(ClusterRouting.class);
  private static final long REFRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final int SLOTS = 16_384;

  private final RedisConnector connector;
  private final List<HostAndPort> seeds;
  private final Lanes.Spec laneSpec;
  private final String address;
  private final JedisClusterInfoCache slots;
  private final Map<HostAndPort, List<PipelineLane>> lanes = new ConcurrentHashMap<>();
  private final AtomicLong lastRefresh = new AtomicLong(System.nanoTime() - REFRESH_NANOS);
  private volatile boolean discovered;
  private volatile boolean stale;

  ClusterRouting(RedisConnector connector, RedisEndpoint.Cluster endpoint, Lanes.Spec laneSpec) {
    this.connector = connector;
    this.seeds = endpoint.seeds().stream().map(n -> new HostAndPort(n.host(), n.port())).toList();
    this.laneSpec = laneSpec;
    this.address = endpoint.address();
    this.slots = new JedisClusterInfoCache(connector.clientConfig(), new HashSet<>(seeds));
  }

  /** Asks for the slot map; lanes to each master start when a request first goes there. */
  @Override
  public void start() {
    try {
      discover();
    } catch (RuntimeException e) {
      log.warn(
          "redis {}: no slot map yet ({}); asking again on the next request",
          address,
          ConnectFailures.describe(e));
    }
  }

  @Override
  public String key(String keyPrefix, String counterKey) {
    return keyPrefix + "{" + counterKey + "}";
  }

  @Override
  public List<Route> route(List<Hit> hits, String keyPrefix) {
    refreshIfStale();
    Map<HostAndPort, List<Integer>> byNode = new LinkedHashMap<>();
    for (int i = 0; i < hits.size(); i++) {
      byNode.computeIfAbsent(masterOf(hits.get(i), keyPrefix), n -> new ArrayList<>()).add(i);
    }
    List<Route> routes = new ArrayList<>(byNode.size());
    byNode.forEach((node, positions) -> routes.add(new Route(laneOf(node), positions)));
    return routes;
  }

  /**
   * MOVED: the slot is the named node's from now on (so the next request goes there without waiting
   * for a refresh), and the whole map is refreshed soon, since a slot rarely moves alone. ASK: only
   * this request goes there; the map is left as is until the migration ends with MOVED.
   */
  @Override
  public PipelineLane redirect(JedisRedirectionException reply) {
    if (reply instanceof JedisMovedDataException) {
      slots.assignSlotToNode(reply.getSlot(), reply.getTargetNode());
      stale();
    }
    return laneOf(reply.getTargetNode());
  }

  @Override
  public List<PipelineLane> checkedLanes() {
    refreshNow();
    int uncovered = 0;
    Set<HostAndPort> masters = new HashSet<>();
    for (int slot = 0; slot < SLOTS; slot++) {
      HostAndPort node = slots.getSlotNode(slot);
      if (node == null) {
        uncovered++;
      } else {
        masters.add(node);
      }
    }
    if (uncovered > 0) {
      throw new StoreException(
          "redis cluster: "
              + uncovered
              + " of "
              + SLOTS
              + " slots have no master (CLUSTER INFO: cluster_slots_assigned below 16384); keys in"
              + " them cannot be counted");
    }
    return masters.stream().map(this::laneOf).toList();
  }

  @Override
  public void stale() {
    stale = true;
  }

  /**
   * Refreshes a slot map marked stale, on the calling (request) thread, at most every {@link
   * #REFRESH_NANOS}; one caller does it (Jedis skips a refresh already under way) and the others
   * route by the map they have. Lane threads only mark the map, so they never wait on CLUSTER
   * SLOTS.
   */
  private void refreshIfStale() {
    long last = lastRefresh.get();
    if (stale
        && System.nanoTime() - last >= REFRESH_NANOS
        && lastRefresh.compareAndSet(last, System.nanoTime())) {
      stale = false;
      try {
        slots.renewClusterSlots(null);
      } catch (RuntimeException e) {
        stale = true;
        log.debug("redis cluster: slot map refresh failed", e);
      }
    }
  }

  private HostAndPort masterOf(Hit hit, String keyPrefix) {
    int slot = JedisClusterCRC16.getSlot(key(keyPrefix, hit.key()));
    if (!discovered) {
      discover();
    }
    HostAndPort node = slots.getSlotNode(slot);
    if (node == null) {
      stale();
      refreshIfStale();
      node = slots.getSlotNode(slot);
    }
    if (node == null) {
      throw new StoreException("redis cluster: no master serves slot " + slot);
    }
    return node;
  }

  private PipelineLane laneOf(HostAndPort node) {
    return Lanes.leastLoaded(lanes.computeIfAbsent(node, this::startLanes));
  }

  private List<PipelineLane> startLanes(HostAndPort node) {
    List<PipelineLane> started =
        laneSpec.create(
            new Lanes.Node(node.toString(), connector.to(node), new AtomicLong(), List.of()));
    Lanes.start(started, node.toString());
    return started;
  }

  private synchronized void discover() {
    if (discovered) {
      return;
    }
    JedisException last = null;
    for (HostAndPort seed : seeds) {
      try (Connection connection = connector.plain(seed)) {
        slots.discoverClusterNodesAndSlots(connection);
        discovered = true;
        return;
      } catch (JedisException e) {
        last = e;
      }
    }
    throw new StoreException(
        "redis cluster: no seed answered CLUSTER SLOTS: " + ConnectFailures.describe(last), last);
  }

  private void refreshNow() {
    if (!discovered) {
      discover();
      return;
    }
    lastRefresh.set(System.nanoTime());
    slots.renewClusterSlots(null);
  }

  @Override
  public void close() {
    lanes.values().forEach(Lanes::close);
    slots.close();
  }
}
