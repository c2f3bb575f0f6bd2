package dev.sluice.service;

import dev.sluice.config.StoreConfig;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.RunningSluice;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link WindowsThroughRlsContract} on a private redis-server; two instances share it in the race.
 * Tests share the server, and each starts from a clock of its own: keys hold the window's index, so
 * a test's counters are not another's unless both name the same window and value.
 */
class WindowsThroughRlsRedisIT extends WindowsThroughRlsContract {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  @Override
  protected StoreConfig store() {
    return RunningSluice.redisStore(redis.uri());
  }

  @Override
  protected boolean instancesShareTheStore() {
    return true;
  }
}
