package dev.sluice.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.MigrateParams;

/**
 * One node's {@code CLUSTER NODES} answer, read for tests: who is master of which slot, which
 * replica follows which master, and the steps of moving a slot. A snapshot; read again after a
 * change.
 */
final class ClusterTopologyView {
  private static final int MIGRATE_BATCH = 20;
  private static final int MIGRATE_TIMEOUT_MILLIS = 5_000;

  private final RedisClusterExtension cluster;
  private final List<Node> nodes;

  private ClusterTopologyView(RedisClusterExtension cluster, List<Node> nodes) {
    this.cluster = cluster;
    this.nodes = nodes;
  }

  /** One line of CLUSTER NODES. */
  private record Node(
      String id,
      HostAndPort address,
      boolean master,
      boolean failed,
      String masterId,
      List<Integer> slots) {}

  static ClusterTopologyView read(RedisClusterExtension cluster) {
    return read(cluster, cluster.anyNode());
  }

  private static ClusterTopologyView read(RedisClusterExtension cluster, HostAndPort from) {
    try (Jedis jedis = cluster.client(from)) {
      return new ClusterTopologyView(cluster, parse(jedis.clusterNodes()));
    }
  }

  /** True when every live node reports the same master for every slot. */
  static boolean agreed(RedisClusterExtension cluster) {
    Map<HostAndPort, List<Integer>> first = null;
    for (HostAndPort node : cluster.liveNodes()) {
      Map<HostAndPort, List<Integer>> seen = read(cluster, node).slotsByMaster();
      if (first != null && !first.equals(seen)) {
        return false;
      }
      first = seen;
    }
    return true;
  }

  private static List<Node> parse(String clusterNodes) {
    List<Node> parsed = new ArrayList<>();
    for (String line : clusterNodes.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      String[] fields = line.trim().split(" ");
      String address = fields[1].substring(0, fields[1].indexOf('@'));
      int colon = address.lastIndexOf(':');
      HostAndPort hostAndPort =
          new HostAndPort(
              address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
      String flags = fields[2];
      List<Integer> slots = new ArrayList<>();
      for (int i = 8; i < fields.length; i++) {
        if (fields[i].startsWith("[")) {
          continue; // a slot being migrated or imported: still served by its owner
        }
        String[] range = fields[i].split("-");
        int from = Integer.parseInt(range[0]);
        int to = range.length == 2 ? Integer.parseInt(range[1]) : from;
        for (int slot = from; slot <= to; slot++) {
          slots.add(slot);
        }
      }
      parsed.add(
          new Node(
              fields[0],
              hostAndPort,
              flags.contains("master"),
              flags.contains("fail"),
              fields[3],
              slots));
    }
    return parsed;
  }

  Map<HostAndPort, List<Integer>> slotsByMaster() {
    Map<HostAndPort, List<Integer>> byMaster = new LinkedHashMap<>();
    nodes.stream()
        .filter(n -> n.master() && !n.failed() && !n.slots().isEmpty())
        .sorted((a, b) -> Integer.compare(a.slots().get(0), b.slots().get(0)))
        .forEach(n -> byMaster.put(n.address(), n.slots()));
    return byMaster;
  }

  HostAndPort masterOf(int slot) {
    return nodes.stream()
        .filter(n -> n.master() && !n.failed() && n.slots().contains(slot))
        .map(Node::address)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no master serves slot " + slot));
  }

  HostAndPort replicaOf(HostAndPort master) {
    String masterId = node(master).id();
    return nodes.stream()
        .filter(n -> !n.master() && !n.failed() && n.masterId().equals(masterId))
        .map(Node::address)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no live replica follows " + master));
  }

  private Node node(HostAndPort address) {
    return nodes.stream()
        .filter(n -> n.address().equals(address))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("not a cluster node: " + address));
  }

  void migrate(int slot, HostAndPort target, Runnable beforeKeysMove, Runnable betweenBatches) {
    HostAndPort source = masterOf(slot);
    if (Objects.equals(source, target)) {
      throw new IllegalArgumentException("slot " + slot + " is already on " + target);
    }
    String sourceId = node(source).id();
    String targetId = node(target).id();
    try (Jedis to = cluster.client(target);
        Jedis from = cluster.client(source)) {
      to.clusterSetSlotImporting(slot, sourceId);
      from.clusterSetSlotMigrating(slot, targetId);
      beforeKeysMove.run();
      for (List<String> keys = from.clusterGetKeysInSlot(slot, MIGRATE_BATCH);
          !keys.isEmpty();
          keys = from.clusterGetKeysInSlot(slot, MIGRATE_BATCH)) {
        from.migrate(
            target.getHost(),
            target.getPort(),
            MIGRATE_TIMEOUT_MILLIS,
            new MigrateParams(),
            keys.toArray(String[]::new));
        betweenBatches.run();
      }
      to.clusterSetSlotNode(slot, targetId);
      from.clusterSetSlotNode(slot, targetId);
    }
    for (Node other : nodes) {
      if (other.master()
          && !other.failed()
          && !other.address().equals(source)
          && !other.address().equals(target)) {
        try (Jedis jedis = cluster.client(other.address())) {
          jedis.clusterSetSlotNode(slot, targetId);
        }
      }
    }
  }
}
