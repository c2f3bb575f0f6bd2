package dev.sluice.store.redis;

import dev.sluice.config.RedisEndpoint;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.providers.SentineledConnectionProvider;

/**
 * Where the store's lanes connect: the one server of a standalone or unix endpoint, or the current
 * master of a sentinel setup. For sentinels, Jedis's {@link SentineledConnectionProvider} finds the
 * master and follows {@code +switch-master} on its own listener threads (Jedis's, the one place
 * threads are started outside {@code Sluice}); {@link #followMaster} notices a switch on the
 * request path (one volatile read) and bumps the lanes' shared break counter, so each lane checks
 * its connection with PING before its next batch, and the connections to the old master are closed
 * so those PINGs fail and the lanes reconnect to the new one. Thread-safe.
 */
final class RedisTopology implements Supplier<Connection>, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RedisTopology.class);

  private final RedisConnector connector;
  private final RedisEndpoint endpoint;
  private final AtomicLong breaks;
  private final AtomicReference<HostAndPort> master = new AtomicReference<>();
  private final Set<Connection> toMaster = new HashSet<>(); // guarded by itself
  private SentineledConnectionProvider sentinels; // guarded by this

  /**
   * @param breaks the lanes' shared count of broken connections
   */
  RedisTopology(RedisConnector connector, RedisEndpoint endpoint, AtomicLong breaks) {
    this.connector = connector;
    this.endpoint = endpoint;
    this.breaks = breaks;
  }

  /**
   * A connection to the server, or to the current master.
   *
   * @throws JedisException with a one-line reason, e.g. when no sentinel knows the master
   */
  @Override
  public Connection get() {
    if (!(endpoint instanceof RedisEndpoint.Sentinel)) {
      return connector.get();
    }
    HostAndPort current = sentinels().getCurrentMaster();
    master.set(current);
    Connection connection = connector.to(current).get();
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

  /**
   * For sentinels: when the sentinels have named a new master since the lanes connected, makes the
   * lanes reconnect. Cheap enough to call on every request; a no-op for a single server.
   */
  void followMaster() {
    HostAndPort known = master.get();
    if (known == null) {
      return;
    }
    SentineledConnectionProvider provider;
    synchronized (this) {
      provider = sentinels;
    }
    HostAndPort current = provider == null ? known : provider.getCurrentMaster();
    if (!current.equals(known) && master.compareAndSet(known, current)) {
      log.warn("redis: sentinels switched master '{}' from {} to {}", masterName(), known, current);
      closeConnectionsToOldMaster();
      breaks.incrementAndGet();
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
      Set<HostAndPort> addresses = new HashSet<>();
      sentinel.sentinels().forEach(n -> addresses.add(new HostAndPort(n.host(), n.port())));
      try {
        sentinels =
            new SentineledConnectionProvider(
                sentinel.masterName(),
                connector.clientConfig(),
                addresses,
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
    if (sentinels != null) {
      sentinels.close();
      sentinels = null;
    }
  }
}
