package dev.sluice.store.redis;

import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import java.util.List;
import java.util.stream.IntStream;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * One server (or the current master of a sentinel setup): every hit of a request goes to the lane
 * with the fewest requests queued or in flight, the first on a tie, so light traffic keeps to one
 * warm connection.
 */
final class SingleNodeRouting implements NodeRouting {
  /** Every request's positions are 0..n-1: made once for the usual sizes, not per request. */
  private static final List<List<Integer>> POSITIONS =
      IntStream.rangeClosed(0, 16).mapToObj(SingleNodeRouting::positions).toList();

  private final List<PipelineLane> lanes;
  private final RedisTopology topology;

  SingleNodeRouting(List<PipelineLane> lanes, RedisTopology topology) {
    this.lanes = List.copyOf(lanes);
    this.topology = topology;
  }

  @Override
  public void start() {
    topology.start();
    Lanes.start(lanes, topology.address());
  }

  @Override
  public String key(String keyPrefix, String counterKey) {
    return keyPrefix + counterKey;
  }

  @Override
  public List<Route> route(List<Hit> hits, String keyPrefix) {
    int size = hits.size();
    return List.of(
        new Route(leastLoaded(), size < POSITIONS.size() ? POSITIONS.get(size) : positions(size)));
  }

  private static List<Integer> positions(int size) {
    return IntStream.range(0, size).boxed().toList();
  }

  /** A single server does not redirect unless it is in fact a cluster node: say so. */
  @Override
  public PipelineLane redirect(JedisRedirectionException reply) {
    throw new StoreException(
        "redis at "
            + topology.address()
            + " answered '"
            + reply.getMessage()
            + "': it is a cluster node; use a redis-cluster:// URL");
  }

  @Override
  public List<PipelineLane> checkedLanes() {
    return List.of(leastLoaded());
  }

  @Override
  public void stale() {
    topology.stale();
  }

  private PipelineLane leastLoaded() {
    topology.followMaster();
    return Lanes.leastLoaded(lanes);
  }

  @Override
  public void close() {
    Lanes.close(lanes);
    topology.close();
  }
}
