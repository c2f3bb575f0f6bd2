package dev.sluice.store.redis;

import dev.sluice.store.BatchTrace;
import dev.sluice.store.Patience;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.exceptions.JedisException;

/** Creating, starting, choosing and closing a node's lanes. */
final class Lanes {
  private static final Logger log = LoggerFactory.getLogger(Lanes.class);

  private Lanes() {}

  /**
   * How every node's lanes are made.
   *
   * @param threads makes each lane's writer thread
   * @param perNode lanes (connections) per node, at least 1
   * @param timeout connect and reply timeout
   * @param maxPendingHits hits one lane holds waiting or in flight before it sheds requests
   * @param hooks the trace told about each pipeline sent and the callers' patience
   */
  record Spec(
      ThreadFactory threads, int perNode, Duration timeout, int maxPendingHits, LaneHooks hooks) {
    BatchTrace trace() {
      return hooks.trace();
    }

    Patience.Source callers() {
      return hooks.callers();
    }

    /** Lanes to one node sharing a break counter; nothing connects or runs yet. */
    List<PipelineLane> create(Node node) {
      List<PipelineLane> lanes = new ArrayList<>(perNode);
      for (int i = 0; i < perNode; i++) {
        lanes.add(new PipelineLane(this, node));
      }
      return List.copyOf(lanes);
    }
  }

  /**
   * One node's lanes: where they connect and what they share.
   *
   * @param connector opens a ready connection, or throws {@link JedisException}
   * @param breaks shared by a store's lanes: how many broken connections any of them has seen
   * @param coalesced the batch-form scripts whose calls each lane combines into one per batch
   *     ({@link CoalescedScript}): only where one node holds every key, never on a cluster
   */
  record Node(
      String address,
      Supplier<Connection> connector,
      AtomicLong breaks,
      List<CoalescedScript.Form> coalesced) {}

  /**
   * Connects the lanes until one fails (the others connect on their first batch) and starts their
   * threads; never fails itself.
   */
  static void start(List<PipelineLane> lanes, String address) {
    for (PipelineLane lane : lanes) {
      try {
        lane.connect();
      } catch (JedisException e) {
        log.warn(
            "redis at {}: cannot connect yet ({}); lanes connect on their first request",
            address,
            e.getMessage());
        break;
      }
    }
    lanes.forEach(PipelineLane::start);
  }

  /** The lane with the fewest requests queued or in flight; the first of equals. */
  static PipelineLane leastLoaded(List<PipelineLane> lanes) {
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

  /** Stops all at once, then waits for each. */
  static void close(List<PipelineLane> lanes) {
    lanes.forEach(PipelineLane::shutdown);
    lanes.forEach(PipelineLane::close);
  }
}
