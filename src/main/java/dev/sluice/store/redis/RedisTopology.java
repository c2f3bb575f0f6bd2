package dev.sluice.store.redis;

import dev.sluice.config.RedisEndpoint;
import dev.sluice.store.StoreException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.providers.SentineledConnectionProvider;

/**
 * Where the store's lanes connect: the one server of a standalone or unix endpoint, or the current
 * master of a sentinel setup. For sentinels, Jedis's {@link SentineledConnectionProvider} finds the
 * master at first; then {@link SentinelEvents} follows {@code +switch-master} and hears a failover
 * start ({@code +selected-slave}), so requests are answered by the failure mode from then until the
 * switch instead of being counted on a master whose writes are about to be lost, and hears {@code
 * +switch-master} itself. A node that failed or answered {@code READONLY} (a demoted master) makes
 * the next request ask that node for its role (a replica names its master), at most every {@link
 * #ASK_NANOS}. {@link #followMaster} runs on the request path (a few volatile reads when nothing
 * changed); on a switch it bumps the lanes' shared break counter and closes the connections to the
 * old master, so each lane's PING before its next batch fails and it reconnects to the new one.
 * Thread-safe.
 */
final class RedisTopology implements Supplier<Connection>, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RedisTopology.class);
  private static final long ASK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final RedisConnector connector;
  private final RedisEndpoint endpoint;
  private final AtomicLong breaks;
  private final SentinelEvents events; // null unless sentinels
  private final AtomicReference<HostAndPort> master = new AtomicReference<>();
  private final AtomicReference<HostAndPort> latest = new AtomicReference<>(); // newest heard
  private final AtomicLong lastAsk = new AtomicLong(System.nanoTime() - ASK_NANOS);
  private final Set<Connection> toMaster = new HashSet<>(); // guarded by itself
  private SentineledConnectionProvider sentinels; // guarded by this
  private volatile boolean suspect;

  /**
   * @param breaks the lanes' shared count of broken connections
   * @param threads makes the sentinel event listeners' threads (one per sentinel)
   */
  RedisTopology(
      RedisConnector connector, RedisEndpoint endpoint, AtomicLong breaks, ThreadFactory threads) {
    this.connector = connector;
    this.endpoint = endpoint;
    this.breaks = breaks;
    this.events =
        endpoint instanceof RedisEndpoint.Sentinel sentinel
            ? new SentinelEvents(
                sentinel.masterName(),
                addresses(sentinel),
                connector.sentinelConfig(),
                threads,
                latest::set)
            : null;
  }

  private static List<HostAndPort> addresses(RedisEndpoint.Sentinel sentinel) {
    return sentinel.sentinels().stream().map(n -> new HostAndPort(n.host(), n.port())).toList();
  }

  /** Starts listening to the sentinels' events; a no-op for a single server. Once. */
  void start() {
    if (events != null) {
      events.start();
    }
  }

  /**
   * A connection to the server, or to the current master.
   *
   * @throws JedisException with a one-line reason, e.g. when no sentinel knows the master
   */
  @Override
  public Connection get() {
    if (events == null) {
      return connector.get();
    }
    HostAndPort current = currentMaster();
    master.set(current);
    Connection connection = connector.to(current, () -> current.equals(latest.get())).get();
    synchronized (toMaster) {
      toMaster.removeIf(open -> !open.isConnected());
      toMaster.add(connection);
    }
    return connection;
  }

  /** Where this connects, for log lines: the server or the sentinels' master name. */
  String address() {
    return endpoint.address();
  }

  /** A node failed or answered READONLY: the next request asks it whether it is still master. */
  void stale() {
    suspect = true;
  }

  /**
   * For sentinels: when the sentinels have named a new master since the lanes connected, makes the
   * lanes reconnect. Cheap enough to call on every request; a no-op for a single server.
   *
   * @throws StoreException while a failover is under way (between {@code +selected-slave} and
   *     {@code +switch-master}): the old master's writes would be lost
   */
  void followMaster() {
    if (events == null) {
      return;
    }
    if (events.failingOver()) {
      throw new StoreException(
          "redis: sentinels are failing master '"
              + masterName()
              + "' over; answered by the failure mode until they name the new one");
    }
    HostAndPort known = master.get();
    if (known == null) {
      return;
    }
    if (suspect) {
      followDemoted(known);
    }
    HostAndPort current = currentMaster();
    if (!current.equals(known) && master.compareAndSet(known, current)) {
      log.warn("redis: sentinels switched master '{}' from {} to {}", masterName(), known, current);
      closeConnectionsToOldMaster();
      breaks.incrementAndGet();
    }
  }

  /**
   * The master: the one Jedis's provider found first, then only what our own listener heard in
   * {@code +switch-master} or a demoted master named. Jedis's provider is not asked again on
   * purpose: each of its listener threads, whenever it reconnects to a sentinel, takes that
   * sentinel's word for the master, and a sentinel that has not caught up with a switch yet names
   * the old master; following that sent the writes of a whole failover test back to the demoted
   * master (395,000 of 410,000 lost when it was made a replica).
   */
  private HostAndPort currentMaster() {
    HostAndPort known = latest.get();
    if (known == null) {
      latest.compareAndSet(null, sentinels().getCurrentMaster());
      known = latest.get();
    }
    return known;
  }

  /**
   * When the master the store knows has become a replica (it answers READONLY), follows it to its
   * own master, if that one says it is a master; at most every {@link #ASK_NANOS}. Asks the nodes,
   * not the sentinels: right after a switch the sentinels other than the leader still name the old
   * master for a second or so, and following them would move the store back to a demoted master
   * that has not been made a replica yet, whose writes are then lost.
   */
  private void followDemoted(HostAndPort known) {
    long last = lastAsk.get();
    if (System.nanoTime() - last < ASK_NANOS || !lastAsk.compareAndSet(last, System.nanoTime())) {
      return;
    }
    suspect = false;
    try {
      Map<String, String> replication = replication(known);
      if (!"slave".equals(replication.get("role"))) {
        return;
      }
      HostAndPort upstream =
          new HostAndPort(
              replication.get("master_host"), Integer.parseInt(replication.get("master_port")));
      if ("master".equals(replication(upstream).get("role"))) {
        log.warn("redis: master {} was demoted; following it to {}", known, upstream);
        latest.set(upstream);
      }
    } catch (RuntimeException e) {
      log.debug("redis: cannot ask {} for its role: {}", known, e.getMessage());
    }
  }

  private Map<String, String> replication(HostAndPort node) {
    try (Jedis jedis = new Jedis(node, connector.clientConfig())) {
      Map<String, String> fields = new HashMap<>();
      for (String line : jedis.info("replication").split("\r?\n")) {
        int colon = line.indexOf(':');
        if (colon > 0) {
          fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
        }
      }
      return fields;
    }
  }

  private void closeConnectionsToOldMaster() {
    synchronized (toMaster) {
      for (Connection connection : toMaster) {
        try {
          connection.forceDisconnect(); // the owning lane's PING then fails and it reconnects
        } catch (Exception e) {
          log.debug("redis: closing a connection to the old master failed", e);
        }
      }
      toMaster.clear();
    }
  }

  private synchronized SentineledConnectionProvider sentinels() {
    if (sentinels == null) {
      RedisEndpoint.Sentinel sentinel = (RedisEndpoint.Sentinel) endpoint;
      try {
        sentinels =
            new SentineledConnectionProvider(
                sentinel.masterName(),
                connector.clientConfig(),
                new HashSet<>(addresses(sentinel)),
                connector.sentinelConfig());
      } catch (JedisException e) {
        throw new JedisConnectionException(
            "no sentinel of "
                + endpoint.address()
                + " names the master: "
                + ConnectFailures.describe(e),
            e);
      }
    }
    return sentinels;
  }

  private String masterName() {
    return ((RedisEndpoint.Sentinel) endpoint).masterName();
  }

  @Override
  public synchronized void close() {
    if (events != null) {
      events.close();
    }
    if (sentinels != null) {
      sentinels.close();
      sentinels = null;
    }
  }
}
