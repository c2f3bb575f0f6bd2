package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Hammer;
import dev.sluice.testing.RedisServerExtension;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;

/**
 * The counter-example that keeps the concurrency contract honest. {@code CounterStoreContract}
 * asserts that 32 threads on two instances are allowed exactly the limit; that only means something
 * if the same harness catches a store that is not atomic. Here a naive counter reads (GET) and then
 * writes (SET count + 1) in a separate call, the way a check-then-act store would, and the same
 * kind of hammering lets more than the limit through: two threads read the same count and both
 * write count + 1, so one hit is lost.
 */
class NaiveCounterRaceIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final int THREADS = 32; // as in CounterStoreContract
  private static final int ATTEMPTS_PER_THREAD = 50;
  private static final int LIMIT = 100;

  @Test
  void readThenWriteCounter_concurrentHitsFromTwoInstances_allowsMoreThanTheLimit()
      throws Exception {
    String key = "naive-" + UUID.randomUUID();
    try (RedisClient one = client();
        RedisClient two = client()) {
      RedisClient[] instances = {one, two};
      int allowed =
          Hammer.countAllowed(
              THREADS, ATTEMPTS_PER_THREAD, t -> () -> naiveHit(instances[t % 2], key));
      assertThat(allowed).isGreaterThan(LIMIT);
    }
  }

  /** Check, then act, in two round trips: the race the real store's single command avoids. */
  private static boolean naiveHit(RedisClient redis, String key) {
    String value = redis.get(key);
    long count = value == null ? 0 : Long.parseLong(value);
    if (count >= LIMIT) {
      return false;
    }
    redis.set(key, Long.toString(count + 1));
    return true;
  }

  private static RedisClient client() {
    ConnectionPoolConfig pool = new ConnectionPoolConfig();
    pool.setMaxTotal(THREADS);
    return RedisClient.builder().hostAndPort(redis.host(), redis.port()).poolConfig(pool).build();
  }
}
