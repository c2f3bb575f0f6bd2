package dev.sluice.rlqs;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.Secret;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The demand board on the store's Redis: one hash per counter, a field per client of every
 * instance, written by {@code lua/rlqs_demand.lua}. One exchange is one pipeline, one round trip,
 * for every counter this instance has clients of. Only a standalone {@code redis://} or {@code
 * rediss://} URL (TLS with the JVM's trust store) is supported; {@link #open} says when not. Called
 * on one scheduler thread at a time; the pool is thread-safe.
 */
final class RedisDemandBoard implements DemandBoard {
  private static final String SCRIPT = readScript("lua/rlqs_demand.lua");
  private static final String SHA1 = sha1Hex(SCRIPT);

  private final JedisPooled redis;
  private final String keyPrefix;
  private final String instance = UUID.randomUUID().toString();

  private RedisDemandBoard(JedisPooled redis, String keyPrefix) {
    this.redis = redis;
    this.keyPrefix = keyPrefix;
  }

  /** A board on {@code config}'s Redis; empty for an endpoint other than one standalone server. */
  static Optional<RedisDemandBoard> open(RedisConfig config) {
    if (!(config.endpoint() instanceof RedisEndpoint.Standalone server)) {
      return Optional.empty();
    }
    DefaultJedisClientConfig.Builder client =
        DefaultJedisClientConfig.builder()
            .database(server.database())
            .ssl(server.tls())
            .timeoutMillis((int) Math.max(config.timeout().toMillis(), 1000));
    server.user().ifPresent(client::user);
    server.password().map(Secret::reveal).ifPresent(client::password);
    // No evictor: its thread would be one more no one listed, and one exchange per interval keeps
    // the one connection in use.
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
    pool.setMaxTotal(2);
    pool.setTimeBetweenEvictionRuns(Duration.ofMillis(-1));
    JedisPooled redis =
        new JedisPooled(new HostAndPort(server.host(), server.port()), client.build(), pool);
    return Optional.of(new RedisDemandBoard(redis, config.keyPrefix()));
  }

  @Override
  public Map<String, double[]> exchange(Map<String, Map<String, Double>> local, Duration ttl) {
    List<String> groups = new ArrayList<>(local.keySet());
    List<List<String>> args = new ArrayList<>();
    List<Response<Object>> replies = new ArrayList<>();
    try (Pipeline pipeline = (Pipeline) redis.pipelined()) {
      for (String group : groups) {
        List<String> groupArgs = arguments(local.get(group), ttl);
        args.add(groupArgs);
        replies.add(pipeline.evalsha(SHA1, List.of(key(group)), groupArgs));
      }
      pipeline.sync();
    }
    Map<String, double[]> others = new HashMap<>();
    for (int i = 0; i < groups.size(); i++) {
      Object reply;
      try {
        reply = replies.get(i).get();
      } catch (JedisDataException e) {
        if (e.getMessage() == null || !e.getMessage().startsWith("NOSCRIPT")) {
          throw e;
        }
        // Only this entry again: the others have run, and the script is cached now.
        reply = redis.eval(SCRIPT, List.of(key(groups.get(i))), args.get(i));
      }
      others.put(groups.get(i), demands(reply));
    }
    return others;
  }

  private List<String> arguments(Map<String, Double> clients, Duration ttl) {
    List<String> args = new ArrayList<>(List.of(Long.toString(ttl.toMillis()), instance));
    clients.forEach(
        (client, demand) -> {
          args.add(client);
          args.add(Long.toString(demand.isInfinite() ? -1 : Math.round(demand * 1000)));
        });
    return args;
  }

  private static double[] demands(Object reply) {
    List<?> values = (List<?>) reply;
    double[] demands = new double[values.size()];
    for (int i = 0; i < demands.length; i++) {
      long milli = (Long) values.get(i);
      demands[i] = milli < 0 ? Double.POSITIVE_INFINITY : milli / 1000.0;
    }
    return demands;
  }

  private String key(String group) {
    return keyPrefix + "sluice_rlqs|" + group;
  }

  @Override
  public String kind() {
    return "redis";
  }

  @Override
  public void close() {
    redis.close();
  }

  private static String readScript(String resource) {
    try (InputStream in = RedisDemandBoard.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("script not on the class path: " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String sha1Hex(String text) {
    try {
      byte[] digest =
          java.security.MessageDigest.getInstance("SHA-1")
              .digest(text.getBytes(StandardCharsets.UTF_8));
      return java.util.HexFormat.of().formatHex(digest);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
