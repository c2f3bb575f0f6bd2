package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * A real Sentinel setup for one test class: one master, one replica ({@code --replicaof}) and three
 * sentinels ({@code redis-server sentinel.conf --sentinel}, quorum 2, down after 1 s), all on free
 * ports. Optionally the data nodes and the sentinels each require a password. Returns from {@code
 * beforeAll} once every sentinel knows the master and its replica. Needs {@code redis-server} on
 * PATH. Not thread-safe: tests drive failovers from one thread.
 */
public final class RedisSentinelExtension implements BeforeAllCallback, AfterAllCallback {
  public static final String MASTER_NAME = "sluice-master";
  private static final int SENTINELS = 3;
  private static final Duration SETTLED = Duration.ofSeconds(30);

  private final Optional<String> dataPassword;
  private final Optional<String> sentinelPassword;
  private final List<RedisProcess> data = new ArrayList<>();
  private final List<RedisProcess> sentinels = new ArrayList<>();
  private Path configs;

  /** No passwords anywhere. */
  public RedisSentinelExtension() {
    this(Optional.empty(), Optional.empty());
  }

  /**
   * @param dataPassword {@code requirepass} of master and replica (and the sentinels' auth-pass)
   * @param sentinelPassword {@code requirepass} of the sentinels themselves
   */
  public RedisSentinelExtension(Optional<String> dataPassword, Optional<String> sentinelPassword) {
    this.dataPassword = dataPassword;
    this.sentinelPassword = sentinelPassword;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    Path server = RedisTools.require("redis-server");
    try {
      configs = Files.createTempDirectory("sluice-sentinel-");
      RedisProcess master = new RedisProcess(server, List.of(), auth(List.of()));
      data.add(master);
      master.start();
      RedisProcess replica =
          new RedisProcess(
              server,
              List.of(),
              auth(List.of("--replicaof", master.host(), Integer.toString(master.port()))));
      data.add(replica);
      replica.start();
      for (int i = 0; i < SENTINELS; i++) {
        Path conf = configs.resolve("sentinel-" + i + ".conf");
        Files.writeString(conf, sentinelConfig(master));
        List<String> options = new ArrayList<>(List.of("--sentinel"));
        sentinelPassword.ifPresent(p -> options.addAll(List.of("--requirepass", p)));
        RedisProcess sentinel = new RedisProcess(server, List.of(conf.toString()), options);
        sentinels.add(sentinel);
        sentinel.start();
      }
      Eventually.await(SETTLED, "every sentinel to see master and replica", this::settled);
    } catch (IOException e) {
      afterAll(context);
      throw new UncheckedIOException(e);
    } catch (RuntimeException | AssertionError e) {
      afterAll(context);
      throw e;
    }
  }

  private List<String> auth(List<String> options) {
    List<String> all = new ArrayList<>(options);
    dataPassword.ifPresent(p -> all.addAll(List.of("--requirepass", p, "--masterauth", p)));
    return all;
  }

  private String sentinelConfig(RedisProcess master) {
    StringBuilder conf = new StringBuilder();
    conf.append("sentinel monitor ")
        .append(MASTER_NAME)
        .append(' ')
        .append(master.host())
        .append(' ')
        .append(master.port())
        .append(" 2\n");
    conf.append("sentinel down-after-milliseconds ").append(MASTER_NAME).append(" 1000\n");
    conf.append("sentinel failover-timeout ").append(MASTER_NAME).append(" 5000\n");
    dataPassword.ifPresent(
        p ->
            conf.append("sentinel auth-pass ")
                .append(MASTER_NAME)
                .append(' ')
                .append(p)
                .append('\n'));
    // Sentinels with their own password need it to talk to each other too.
    sentinelPassword.ifPresent(p -> conf.append("sentinel sentinel-pass ").append(p).append('\n'));
    return conf.toString();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    sentinels.forEach(RedisProcess::close);
    data.forEach(RedisProcess::close);
    sentinels.clear();
    data.clear();
    if (configs != null) {
      configs.toFile().listFiles(f -> f.delete());
      configs.toFile().delete();
    }
  }

  /** {@code host:port,...} of the sentinels, for a {@code redis-sentinel://} URL. */
  public String sentinelSeeds() {
    return sentinels.stream().map(s -> s.host() + ":" + s.port()).collect(Collectors.joining(","));
  }

  /** Every data node that is running, master and replica. */
  public List<HostAndPort> dataNodes() {
    return data.stream()
        .filter(RedisProcess::alive)
        .map(n -> new HostAndPort(n.host(), n.port()))
        .toList();
  }

  /** The master as the first sentinel names it now. */
  public HostAndPort master() {
    try (Jedis sentinel = sentinelClient(sentinels.get(0))) {
      List<String> address = sentinel.sentinelGetMasterAddrByName(MASTER_NAME);
      return new HostAndPort(address.get(0), Integer.parseInt(address.get(1)));
    }
  }

  /** A plain connection to a data node (authenticated when it has a password). */
  public Jedis client(HostAndPort node) {
    Jedis jedis = new Jedis(node);
    dataPassword.ifPresent(jedis::auth);
    return jedis;
  }

  /**
   * Asks a sentinel to fail the master over to the replica ({@code SENTINEL FAILOVER}) and waits
   * until every sentinel names the new master and it accepts writes.
   *
   * @return the new master
   */
  public HostAndPort failover() {
    HostAndPort before = master();
    awaitReplicaInSync(before);
    try (Jedis sentinel = sentinelClient(sentinels.get(0))) {
      sentinel.sendCommand(redis.clients.jedis.Protocol.Command.SENTINEL, "FAILOVER", MASTER_NAME);
    }
    Eventually.await(SETTLED, "a new master named by every sentinel", () -> moved(before));
    return master();
  }

  /**
   * Kills the master (SIGKILL) once its replica is in sync, and waits until every sentinel names
   * the replica as the new master and it accepts writes. The killed node stays down.
   *
   * @return the new master
   */
  public HostAndPort killMaster() {
    HostAndPort before = master();
    awaitReplicaInSync(before);
    data.stream().filter(node -> node.port() == before.getPort()).findFirst().orElseThrow().kill();
    Eventually.await(SETTLED, "a new master named by every sentinel", () -> moved(before));
    return master();
  }

  /**
   * Waits until the master's replica has its link up and has acknowledged everything the master had
   * written when this was called: a failover then starts from a replica with the data, and what is
   * lost is only what is written from now on (replication is asynchronous).
   */
  public void awaitReplicaInSync(HostAndPort master) {
    long offset;
    try (Jedis jedis = client(master)) {
      offset = field(jedis.info("replication"), "master_repl_offset");
    }
    Eventually.await(
        SETTLED,
        "the replica of " + master + " to be in sync at offset " + offset,
        () -> {
          try (Jedis jedis = client(master)) {
            String info = jedis.info("replication");
            // slave0:ip=...,port=...,state=online,offset=N,lag=0
            int at = info.indexOf("slave0:");
            if (at < 0 || !info.substring(at).startsWith("slave0:ip=")) {
              return false;
            }
            String line = info.substring(at, info.indexOf('\n', at)).trim();
            long acked = Long.parseLong(line.replaceAll(".*offset=(\\d+).*", "$1"));
            return line.contains("state=online") && acked >= offset;
          } catch (RuntimeException e) {
            return false;
          }
        });
  }

  private static long field(String info, String name) {
    int at = info.indexOf(name + ":");
    int end = info.indexOf('\r', at);
    return Long.parseLong(info.substring(at + name.length() + 1, end).trim());
  }

  private boolean moved(HostAndPort before) {
    try {
      for (RedisProcess each : sentinels) {
        try (Jedis sentinel = sentinelClient(each)) {
          List<String> address = sentinel.sentinelGetMasterAddrByName(MASTER_NAME);
          if (Integer.parseInt(address.get(1)) == before.getPort()) {
            return false;
          }
        }
      }
      try (Jedis master = client(master())) {
        return master.info("replication").contains("role:master");
      }
    } catch (RuntimeException e) {
      return false;
    }
  }

  private boolean replicaLinkUp() {
    try (Jedis replica = client(new HostAndPort(data.get(1).host(), data.get(1).port()))) {
      return replica.info("replication").contains("master_link_status:up");
    }
  }

  private boolean settled() {
    try {
      for (RedisProcess each : sentinels) {
        try (Jedis sentinel = sentinelClient(each)) {
          if (sentinel.sentinelReplicas(MASTER_NAME).isEmpty()
              || !replicaLinkUp()
              || sentinel.sentinelSentinels(MASTER_NAME).size() < SENTINELS - 1) {
            return false;
          }
        }
      }
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private Jedis sentinelClient(RedisProcess sentinel) {
    return new Jedis(
        new HostAndPort(sentinel.host(), sentinel.port()),
        DefaultJedisClientConfig.builder()
            .password(sentinelPassword.orElse(null))
            .timeoutMillis(2_000)
            .build());
  }
}
