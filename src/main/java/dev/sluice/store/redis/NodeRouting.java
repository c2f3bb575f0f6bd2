package dev.sluice.store.redis;

import dev.sluice.store.Hit;
import java.util.List;

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

  /** The lane one hit goes to. */
  PipelineLane laneFor(Hit hit, String keyPrefix);

  /**
   * One lane of every node, after checking the topology (e.g. every slot covered), for PING.
   *
   * @throws dev.sluice.store.StoreException with a one-line reason when the topology is broken
   */
  List<PipelineLane> checkedLanes();

  /** Connects what can be connected now and starts the lanes' threads; never fails. Once. */
  void start();

  /** A reply said the slot map changed (MOVED, ASK): look again, soon but not at once. */
  default void redirected() {}

  @Override
  void close();

  /** A group of one request's hits: their positions in the request, and the lane they go to. */
  record Route(PipelineLane lane, List<Integer> positions) {}
}
