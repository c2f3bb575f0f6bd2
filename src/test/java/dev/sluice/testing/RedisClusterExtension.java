package dev.sluice.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A real Redis Cluster for one test class: three masters and three replicas, each a {@code
 * redis-server --cluster-enabled yes} on a free port, joined with {@code redis-cli --cluster create
 * ... --cluster-replicas 1 --cluster-yes}. Returns from {@code beforeAll} once every node says
 * {@code cluster_state:ok}. Needs {@code redis-server} and {@code redis-cli} on PATH (no Docker
 * fallback: a cluster needs six addresses that agree on each other).
 *
 * <p>Node timeout 1 s, so a killed master is replaced within a few seconds. Not thread-safe: tests
 * drive topology changes from one thread.
 */
public final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback {
  private static final int NODES = 6;
  private static final Duration FORMED = Duration.ofSeconds(30);

  private final List<RedisProcess> nodes = new ArrayList<>();
  private Path cli;

  @Override
  public void beforeAll(ExtensionContext context) {
    Path server = RedisTools.require("redis-server");
    cli = RedisTools.require("redis-cli");
    try {
      for (int i = 0; i < NODES; i++) {
        RedisProcess node =
            new RedisProcess(
                server,
                List.of(),
                List.of(
                    "--cluster-enabled", "yes",
                    "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "1000",
                    // A replica fails over however long its link was down: on a loaded CI machine
                    // a replica resyncing after a manual failover was otherwise never promoted.
                    "--cluster-replica-validity-factor", "0",
                    "--cluster-require-full-coverage", "no"));
        nodes.add(node);
        node.start();
      }
      List<String> create = new ArrayList<>(List.of("--cluster", "create"));
      nodes.forEach(node -> create.add(node.host() + ":" + node.port()));
      create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
      RedisTools.run(cli, create);
      Eventually.await(FORMED, "cluster_state:ok on every node", this::formed);
    } catch (RuntimeException | AssertionError e) {
      afterAll(context);
      throw e;
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    nodes.forEach(RedisProcess::close);
    nodes.clear();
  }

  /** {@code host:port,host:port,...} of every node, for a {@code redis-cluster://} URL. */
  public String seeds() {
    return nodes.stream().map(n -> n.host() + ":" + n.port()).collect(Collectors.joining(","));
  }

  /** The first node's address, a seed a store can start from. */
  public HostAndPort anyNode() {
    RedisProcess node = nodes.stream().filter(RedisProcess::alive).findFirst().orElseThrow();
    return new HostAndPort(node.host(), node.port());
  }

  /** Every node that is running, masters and replicas. */
  public List<HostAndPort> liveNodes() {
    return nodes.stream()
        .filter(RedisProcess::alive)
        .map(n -> new HostAndPort(n.host(), n.port()))
        .toList();
  }

  /** A plain connection to one node; the caller closes it. */
  public Jedis client(HostAndPort node) {
    return new Jedis(node);
  }

  /** The slot of a key, as Redis computes it (hash tags included). */
  public static int slot(String key) {
    return JedisClusterCRC16.getSlot(key);
  }

  /** The master serving a slot now, as a live node reports it. */
  public HostAndPort masterOf(int slot) {
    return ClusterTopologyView.read(this).masterOf(slot);
  }

  /** The masters, each with the slots it serves, as a live node reports them. */
  public Map<HostAndPort, List<Integer>> masters() {
    return ClusterTopologyView.read(this).slotsByMaster();
  }

  /**
   * Moves one slot, and every key in it, from its master to {@code target}, step by step as {@code
   * redis-cli --cluster reshard} does: IMPORTING on the target, MIGRATING on the source, MIGRATE
   * the keys in batches, then NODE on both. Requests in between meet ASK redirects.
   *
   * @param betweenBatches runs after each batch of keys moved, e.g. to let traffic meet ASK
   */
  public void migrateSlot(int slot, HostAndPort target, Runnable betweenBatches) {
    ClusterTopologyView.read(this).migrate(slot, target, () -> {}, betweenBatches);
  }

  /**
   * As {@link #migrateSlot(int, HostAndPort, Runnable)}, and runs {@code beforeKeysMove} once the
   * slot is IMPORTING and MIGRATING but before any key moved: every key is still on the source, and
   * a command whose declared keys are all missing there is sent on with ASK.
   */
  public void migrateSlot(
      int slot, HostAndPort target, Runnable beforeKeysMove, Runnable betweenBatches) {
    ClusterTopologyView.read(this).migrate(slot, target, beforeKeysMove, betweenBatches);
  }

  /**
   * Promotes the replica of {@code master} with {@code CLUSTER FAILOVER} (a planned, lossless
   * switch) and waits until every live node sees it.
   *
   * @return the new master
   */
  public HostAndPort failover(HostAndPort master) {
    HostAndPort replica = ClusterTopologyView.read(this).replicaOf(master);
    try (Jedis jedis = client(replica)) {
      jedis.clusterFailover();
    }
    awaitMaster(replica);
    return replica;
  }

  /**
   * Kills {@code master} (SIGKILL) and waits until its replica has taken over and the cluster is ok
   * again without it. The killed node stays down.
   *
   * @return the promoted replica
   */
  public HostAndPort killMaster(HostAndPort master) {
    HostAndPort replica = ClusterTopologyView.read(this).replicaOf(master);
    awaitReplicaLinked(replica);
    process(master).kill();
    awaitMaster(replica);
    return replica;
  }

  /** Until {@code replica} has finished syncing with its master, so it can take over. */
  private void awaitReplicaLinked(HostAndPort replica) {
    Eventually.await(
        FORMED,
        replica + " replicating with master_link_status:up",
        () -> {
          try (Jedis jedis = client(replica)) {
            return jedis.info("replication").contains("master_link_status:up");
          } catch (RuntimeException e) {
            return false;
          }
        });
  }

  private void awaitMaster(HostAndPort node) {
    Eventually.await(
        FORMED,
        node + " serving as master with the cluster ok",
        () -> {
          try {
            ClusterTopologyView view = ClusterTopologyView.read(this);
            return view.slotsByMaster().containsKey(node) && formed();
          } catch (RuntimeException e) {
            return false;
          }
        });
  }

  private RedisProcess process(HostAndPort node) {
    return nodes.stream()
        .filter(n -> n.port() == node.getPort())
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("not a node of this cluster: " + node));
  }

  private boolean formed() {
    for (HostAndPort node : liveNodes()) {
      try (Jedis jedis = client(node)) {
        String info = jedis.clusterInfo();
        if (!info.contains("cluster_state:ok") || !info.contains("cluster_slots_assigned:16384")) {
          return false;
        }
      } catch (RuntimeException e) {
        return false;
      }
    }
    // Every live node must agree on who serves each slot before a test relies on it.
    return ClusterTopologyView.agreed(this);
  }
}
