package dev.sluice.store.redis;

import dev.sluice.store.Hit;
import java.util.List;
import java.util.stream.IntStream;

/**
 * One server (or the current master of a sentinel setup): every hit of a request goes to the lane
 * with the fewest requests queued or in flight, the first on a tie, so light traffic keeps to one
 * warm connection.
 */
final class SingleNodeRouting implements NodeRouting {
  private final List<PipelineLane> lanes;
  private final RedisTopology topology;

  SingleNodeRouting(List<PipelineLane> lanes, RedisTopology topology) {
    this.lanes = List.copyOf(lanes);
    this.topology = topology;
  }

  @Override
  public void start() {
    Lanes.start(lanes, topology.address());
  }

  @Override
  public String key(String keyPrefix, String counterKey) {
    return keyPrefix + counterKey;
  }

  @Override
  public List<Route> route(List<Hit> hits, String keyPrefix) {
    return List.of(new Route(leastLoaded(), IntStream.range(0, hits.size()).boxed().toList()));
  }

  @Override
  public PipelineLane laneFor(Hit hit, String keyPrefix) {
    return leastLoaded();
  }

  @Override
  public List<PipelineLane> checkedLanes() {
    return List.of(leastLoaded());
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
