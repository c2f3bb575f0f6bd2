package dev.sluice.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/** Waits for a Redis to answer PING, polling with a deadline. */
final class Ping {
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private Ping() {}

  /**
   * Returns once {@code host:port} answers PING.
   *
   * @param gaveUp says why waiting is pointless (e.g. the process exited), or null to keep waiting
   * @throws IllegalStateException when the deadline passes or {@code gaveUp} says so
   */
  static void await(String host, int port, Duration deadline, Supplier<String> gaveUp) {
    long end = System.nanoTime() + deadline.toNanos();
    JedisException last = null;
    while (System.nanoTime() < end) {
      String reason = gaveUp.get();
      if (reason != null) {
        throw new IllegalStateException("redis on port " + port + " " + reason);
      }
      try (Jedis jedis = new Jedis(new HostAndPort(host, port), config())) {
        if ("PONG".equals(jedis.ping())) {
          return;
        }
      } catch (JedisDataException e) {
        if (String.valueOf(e.getMessage()).startsWith("NOAUTH")) {
          return; // up, and wants a password (requirepass)
        }
        last = e;
      } catch (JedisException e) {
        last = e;
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
    throw new IllegalStateException(
        "redis on port " + port + " did not answer PING within " + deadline, last);
  }

  private static DefaultJedisClientConfig config() {
    return DefaultJedisClientConfig.builder().timeoutMillis(500).build();
  }
}
