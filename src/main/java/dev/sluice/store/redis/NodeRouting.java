package dev.sluice.store.redis;

import dev.sluice.store.Hit;
import java.util.List;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * Which lanes a request's hits go to: all to one server's lanes, or, on a cluster, each to a lane
 * of the master that owns its slot. Thread-safe.
 */
interface NodeRouting extends AutoCloseable {
  /**
   * The Redis key of a counter: the prefix and the counter key, on a cluster inside a hash tag
   * ({@code prefix{fw|60|api|user=alice}}) so every key one hit uses (a window index appended, say)
   * lives in one slot.
   */
  String key(String keyPrefix, String counterKey);

  /** The hits grouped by node, each group with the lane it goes to; one group per node. */
  List<Route> route(List<Hit> hits, String keyPrefix);

  /**
   * One lane of every node, after checking the topology (e.g. every slot covered), for PING.
   *
   * @throws dev.sluice.store.StoreException with a one-line reason when the topology is broken
   */
  List<PipelineLane> checkedLanes();

  /** Connects what can be connected now and starts the lanes' threads; never fails. Once. */
  void start();

  /**
   * The lane of the node a MOVED or ASK reply names; after MOVED the slot is that node's from now
   * on and the whole slot map is looked at again soon ({@link #stale}).
   *
   * @throws dev.sluice.store.StoreException when redirects cannot be followed (not a cluster URL)
   */
  PipelineLane redirect(JedisRedirectionException reply);

  /**
   * A node failed or redirected: the topology may have changed, so look again before a coming
   * request, at most every so often. Never blocks.
   */
  default void stale() {}

  @Override
  void close();

  /** A group of one request's hits: their positions in the request, and the lane they go to. */
  record Route(PipelineLane lane, List<Integer> positions) {}
}
