package dev.sluice.store.redis;

import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Opens the connections the lanes pipeline over: the settings' host, credentials, database and TLS,
 * their timeout as both connect and reply timeout, and a script cached on every new connection, so
 * the first EVALSHA after a Redis restart does not miss. Immutable and thread-safe.
 */
final class RedisConnector implements Supplier<Connection> {
  private static final Logger log = LoggerFactory.getLogger(RedisConnector.class);

  private final HostAndPort hostAndPort;
  private final JedisClientConfig config;
  private final LuaScript script;
  private final String address;

  RedisConnector(RedisSettings settings, LuaScript script) {
    this.hostAndPort = new HostAndPort(settings.host(), settings.port());
    this.config = clientConfig(settings);
    this.script = script;
    this.address = settings.address();
  }

  /**
   * A new connection with the script cached. When Redis refuses the script (an ACL, say) the
   * connection is still returned and the script will be sent with EVAL.
   *
   * @throws redis.clients.jedis.exceptions.JedisException when Redis cannot be reached or does not
   *     answer within the timeout
   */
  @Override
  public Connection get() {
    Connection connection = new Connection(hostAndPort, config);
    try {
      script.scriptLoad(connection);
    } catch (JedisDataException e) {
      log.warn(
          "redis at {}: cannot load {} ({}); it will be sent with EVAL when needed",
          address,
          script.resource(),
          e.getMessage());
    } catch (RuntimeException e) {
      connection.close();
      throw e;
    }
    return connection;
  }

  private static JedisClientConfig clientConfig(RedisSettings settings) {
    int timeoutMillis = (int) settings.timeout().toMillis();
    return DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(timeoutMillis)
        .socketTimeoutMillis(timeoutMillis)
        .user(settings.user().orElse(null))
        .password(settings.password().orElse(null))
        .database(settings.database())
        .ssl(settings.tls())
        .clientName("sluice")
        .build();
  }
}
