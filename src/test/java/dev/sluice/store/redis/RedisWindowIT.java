package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RedisConfig;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Unit;
import dev.sluice.rules.Window;
import dev.sluice.store.CounterStore;
import dev.sluice.store.Hit;
import dev.sluice.store.WindowStoreContract;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * The window contract on a real Redis, each store on the test's fake clock (the fixed window's
 * index and every window the scripts are sent come from it; refills read Redis TIME), plus the keys
 * and expiry of a calendar window.
 */
class RedisWindowIT extends WindowStoreContract {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private final List<RedisCounterStore> opened = new ArrayList<>();

  @Override
  protected CounterStore storeOn(FakeClock clock) {
    RedisConfig settings =
        RedisConfig.builder(redis.endpoint())
            .timeout(Duration.ofSeconds(2))
            .connections(16)
            .keyPrefix("")
            .build();
    RedisCounterStore store =
        new RedisCounterStore(settings, clock, new DaemonThreadFactory("sluice-redis-lane"))
            .start();
    opened.add(store);
    return store;
  }

  @AfterEach
  void closeStores() {
    opened.forEach(RedisCounterStore::close);
  }

  /** February 2024 in Berlin: month 649 since January 1970, 29 days long. */
  @Test
  void fixedWindow_calendarMonth_keyHoldsTheMonthsIndexAndLivesAWholeMonth() {
    FakeClock clock = clockAt("2024-02-10T12:00:00Z");
    Window month = new Window.Calendar(Unit.MONTH, ZoneId.of("Europe/Berlin"));
    Hit hit = new Hit(key("fw-month-key"), limit(5, month, Algorithm.FIXED_WINDOW), 2);
    take(storeOn(clock), hit);
    try (Jedis jedis = redis.client()) {
      String key = hit.key() + "|" + (54 * 12 + 1);
      assertThat(jedis.get(key)).isEqualTo("2");
      assertThat(jedis.pttl(key))
          .isBetween(
              Duration.ofDays(29).minusSeconds(10).toMillis(), Duration.ofDays(29).toMillis());
    }
  }

  /**
   * The script counts a sliding window in the windows of Redis's TIME; an inspect must read those
   * windows too, not the ones of an instance whose clock is far off (here years: the fake clock).
   */
  @Test
  void slidingWindow_inspectOnAnInstanceWithAnotherClock_readsTheWindowsRedisCounted() {
    FakeClock clock = clockAt("2024-02-10T12:00:00Z");
    CounterStore store = storeOn(clock);
    Hit hit =
        new Hit(
            key("sw-inspect-clock"), limit(10, Window.of(Unit.HOUR), Algorithm.SLIDING_WINDOW), 3);
    take(store, hit);
    var state = store.inspect(hit).join();
    assertThat(state.exists()).isTrue();
    assertThat(state.usage().countAfter()).isEqualTo(3);
  }
}
