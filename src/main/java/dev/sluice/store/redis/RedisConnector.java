package dev.sluice.store.redis;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.Secret;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.DefaultJedisSocketFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Opens the connections the lanes pipeline over: the endpoint's credentials, database and TLS (CA,
 * client certificate, host name check), the timeout as both connect and reply timeout, a version
 * check, and the scripts cached on every new connection, so the first EVALSHA after a Redis restart
 * does not miss. Immutable and thread-safe.
 */
final class RedisConnector implements Supplier<Connection> {
  private static final Logger log = LoggerFactory.getLogger(RedisConnector.class);

  private final RedisEndpoint endpoint;
  private final JedisClientConfig config;
  private final JedisClientConfig sentinelConfig;
  private final List<LuaScript> scripts;
  private final int timeoutMillis;

  RedisConnector(RedisConfig settings, List<LuaScript> scripts) {
    this.endpoint = settings.endpoint();
    this.timeoutMillis = (int) settings.timeout().toMillis();
    this.config = clientConfig(settings, endpoint.user(), endpoint.password(), database(endpoint));
    this.sentinelConfig = clientConfig(settings, Optional.empty(), settings.sentinelPassword(), 0);
    this.scripts = List.copyOf(scripts);
    if (endpoint.tls() && settings.tls().insecure()) {
      log.warn(
          "redis at {}: --redis-tls-insecure: the server's certificate and host name are NOT"
              + " checked; anyone in the path can read and change counters",
          endpoint.address());
    }
  }

  /** The client settings for data nodes (credentials, database, TLS), e.g. for Jedis topology. */
  JedisClientConfig clientConfig() {
    return config;
  }

  /** The client settings for sentinels: their own password, no database, the same TLS. */
  JedisClientConfig sentinelConfig() {
    return sentinelConfig;
  }

  /**
   * A connection to the one server of a standalone or unix endpoint; see {@link #to}.
   *
   * @throws IllegalStateException for a cluster or sentinel endpoint, whose nodes are found first
   */
  @Override
  public Connection get() {
    if (endpoint instanceof RedisEndpoint.Unix unix) {
      return ready(
          () -> new Connection(new UnixSocketFactory(unix.socket(), timeoutMillis), config),
          unix.address());
    }
    if (endpoint instanceof RedisEndpoint.Standalone standalone) {
      return to(new HostAndPort(standalone.host(), standalone.port())).get();
    }
    throw new IllegalStateException("no single server to connect to for " + endpoint.address());
  }

  /**
   * Opens connections to one node. Each new connection is checked (Redis 7.0 or newer) and has the
   * scripts cached; when Redis refuses a script (an ACL, say) the connection is still returned and
   * that script will be sent with EVAL.
   *
   * @return a supplier that throws {@link redis.clients.jedis.exceptions.JedisException} with a
   *     one-line reason when the node cannot be reached, refuses the credentials or the
   *     certificate, is too old, or does not answer within the timeout
   */
  Supplier<Connection> to(HostAndPort node) {
    return () -> ready(() -> new Connection(node, config), node.toString());
  }

  /**
   * Like {@link #to}, but the connection's socket is only (re)opened while {@code stillWanted} says
   * so. Jedis's {@link Connection} silently reopens a closed socket to the same node on its next
   * command, so closing a lane's connection to a demoted master is not enough: its PING would
   * reconnect there and the lane would go on writing to a master whose writes are lost.
   */
  Supplier<Connection> to(HostAndPort node, BooleanSupplier stillWanted) {
    JedisSocketFactory sockets = new DefaultJedisSocketFactory(node, config);
    return () ->
        ready(
            () ->
                new Connection(
                    () -> {
                      if (!stillWanted.getAsBoolean()) {
                        throw new JedisConnectionException(
                            node + " is no longer the master; not reconnecting to it");
                      }
                      return sockets.createSocket();
                    },
                    config),
            node.toString());
  }

  /** A connection with nothing more than the client settings, e.g. for asking for the slot map. */
  Connection plain(HostAndPort node) {
    try {
      return new Connection(node, config);
    } catch (JedisConnectionException e) {
      throw new JedisConnectionException(ConnectFailures.describe(e), e);
    }
  }

  private Connection ready(Supplier<Connection> open, String where) {
    Connection connection;
    try {
      connection = open.get();
    } catch (JedisConnectionException e) {
      throw new JedisConnectionException(ConnectFailures.describe(e), e);
    }
    try {
      RedisVersion.check(connection, where);
      for (LuaScript script : scripts) {
        load(script, connection, where);
      }
    } catch (JedisDataException e) {
      if (e instanceof RedisVersion.TooOld) {
        connection.close();
        throw e;
      }
      log.warn("redis at {}: cannot check the version ({})", where, e.getMessage());
    } catch (RuntimeException e) {
      connection.close();
      throw e;
    }
    return connection;
  }

  private static void load(LuaScript script, Connection connection, String where) {
    try {
      script.scriptLoad(connection);
    } catch (JedisDataException e) {
      log.warn(
          "redis at {}: cannot load {} ({}); it will be sent with EVAL when needed",
          where,
          script.resource(),
          e.getMessage());
    }
  }

  private static JedisClientConfig clientConfig(
      RedisConfig settings, Optional<String> user, Optional<Secret> password, int database) {
    int timeoutMillis = (int) settings.timeout().toMillis();
    DefaultJedisClientConfig.Builder builder =
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(timeoutMillis)
            .socketTimeoutMillis(timeoutMillis)
            .user(user.orElse(null))
            .password(password.map(Secret::reveal).orElse(null))
            .database(database)
            .clientName("sluice");
    if (settings.endpoint().tls()) {
      builder
          .ssl(true)
          .sslSocketFactory(TlsSockets.factory(settings.tls()))
          .sslParameters(TlsSockets.parameters(settings.tls()));
    }
    return builder.build();
  }

  private static int database(RedisEndpoint endpoint) {
    if (endpoint instanceof RedisEndpoint.Standalone standalone) {
      return standalone.database();
    }
    if (endpoint instanceof RedisEndpoint.Unix unix) {
      return unix.database();
    }
    return 0;
  }
}
