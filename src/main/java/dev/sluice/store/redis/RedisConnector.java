package dev.sluice.store.redis;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.Secret;
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

  RedisConnector(RedisConfig settings, LuaScript script) {
    RedisEndpoint.Standalone endpoint = standalone(settings.endpoint());
    this.hostAndPort = new HostAndPort(endpoint.host(), endpoint.port());
    this.config = clientConfig(endpoint, settings);
    this.script = script;
    this.address = endpoint.address();
  }

  /**
   * The one form this connector opens. A new {@link RedisEndpoint} form must be handled here in the
   * same change that adds it (the store's tests open every form), so no accepted URL fails here.
   */
  private static RedisEndpoint.Standalone standalone(RedisEndpoint endpoint) {
    if (endpoint instanceof RedisEndpoint.Standalone standalone) {
      return standalone;
    }
    throw new IllegalArgumentException("redis endpoint not supported yet: " + endpoint);
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

  private static JedisClientConfig clientConfig(
      RedisEndpoint.Standalone endpoint, RedisConfig settings) {
    int timeoutMillis = (int) settings.timeout().toMillis();
    return DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(timeoutMillis)
        .socketTimeoutMillis(timeoutMillis)
        .user(endpoint.user().orElse(null))
        .password(endpoint.password().map(Secret::reveal).orElse(null))
        .database(endpoint.database())
        .ssl(endpoint.tls())
        .clientName("sluice")
        .build();
  }
}
