package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RedisConfig;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.CounterKey;
import dev.sluice.store.CounterStore;
import dev.sluice.store.CounterStoreContract;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.FixedWindow;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * The store contract on a real Redis, plus what only Redis can get wrong: keys, expiry, prefixes.
 * Stores that need a stable window index use a {@link FakeClock}; expiry is Redis's real time. The
 * contract's stores run on a fake clock stopped at the test's start: their fixed windows are the
 * ones holding that instant, so a boundary cannot fall between two hits of one test (on the running
 * clock an hour's could). A sliding window counts in the window of Redis TIME but is read in the
 * window of the service clock: the contract's are per day, so the two agree unless a test runs
 * across midnight UTC.
 */
class RedisCounterStoreIT extends CounterStoreContract {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  /** An epoch-hour boundary, where minute and hour windows start together. */
  private final FakeClock clock = FakeClock.atEpochSecond(1_700_002_800L);

  private final List<RedisCounterStore> opened = new ArrayList<>();
  private final FakeClock started = new FakeClock(Instant.now());
  private final RedisCounterStore store = open("", started);
  private final RedisCounterStore second = open("", started);

  @Override
  protected CounterStore store() {
    return store;
  }

  @Override
  protected CounterStore secondInstance() {
    return second;
  }

  @Override
  protected boolean answersNow() {
    return false;
  }

  @AfterEach
  void closeStores() {
    opened.forEach(RedisCounterStore::close);
  }

  private RedisCounterStore open(String keyPrefix, Clock storeClock) {
    RedisConfig settings =
        RedisConfig.builder(redis.endpoint())
            .timeout(Duration.ofSeconds(2))
            .connections(16)
            .keyPrefix(keyPrefix)
            .build();
    RedisCounterStore opening =
        new RedisCounterStore(settings, storeClock, new DaemonThreadFactory("sluice-redis-lane"))
            .start();
    opened.add(opening);
    return opening;
  }

  /** The Redis key of a fixed-window hit at the fake clock's instant. */
  private String windowKey(String prefix, Hit hit) {
    long index = FixedWindow.index(clock.millis(), hit.limit().unit().millis());
    return prefix + hit.key() + "|" + index;
  }

  @Test
  void everyKey_hasATtl_noLongerThanItsWindowOrTimeToFull() {
    RedisCounterStore fake = open("", clock);
    Hit minute = new Hit(key("ttl-minute"), fixed(5, Unit.MINUTE), 1);
    Hit hour = new Hit(key("ttl-hour"), fixed(5, Unit.HOUR), 1);
    Hit bucket = new Hit(key("ttl-bucket"), bucket(24, Unit.DAY, 3), 2);
    Usage bucketUsage = fake.acquire(List.of(minute, hour, bucket)).join().get(2);

    try (Jedis jedis = redis.client()) {
      for (String key : RedisProbe.scan(jedis, "*")) {
        assertThat(jedis.pttl(key)).as("TTL of %s", key).isPositive();
      }
      assertThat(jedis.pttl(windowKey("", minute))).isBetween(1L, 60_000L);
      assertThat(jedis.pttl(windowKey("", hour))).isBetween(1L, 3_600_000L);
      // Two tokens missing at one per hour: full again within two hours, as the usage says.
      assertThat(bucketUsage.untilReset()).isLessThanOrEqualTo(Duration.ofHours(2));
      assertThat(jedis.pttl(bucket.key() + "|s"))
          .isBetween(1L, bucketUsage.untilReset().toMillis() + 1);
    }
  }

  @Test
  void fixedWindow_secondHit_neverExtendsTheExpiry() {
    RedisCounterStore fake = open("", clock);
    Hit hit = new Hit(key("nx"), fixed(10, Unit.HOUR), 1);
    acquireOne(fake, hit);
    try (Jedis jedis = redis.client()) {
      String key = windowKey("", hit);
      long afterFirst = jedis.pttl(key);
      long beforeSecond = awaitPttlBelow(jedis, key, afterFirst - 5);
      acquireOne(fake, hit);
      long afterSecond = jedis.pttl(key);
      assertThat(afterSecond).isPositive().isLessThanOrEqualTo(beforeSecond);
    }
  }

  /** Polls until real time has moved the key's TTL below {@code bound}; returns that TTL. */
  private static long awaitPttlBelow(Jedis jedis, String key, long bound) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline) {
      long pttl = jedis.pttl(key);
      if (pttl < bound) {
        return pttl;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
    throw new AssertionError("TTL of " + key + " did not fall below " + bound);
  }

  @Test
  void keysThatCollideInTheReference_countSeparately() {
    Limit one = fixed(1, Unit.HOUR);
    String v = key("v");
    // Each pair is one key in the reference's "_"-joined format.
    List<String> keys =
        List.of(
            CounterKey.of("a_b", List.of(new Entry("c", v)), one),
            CounterKey.of("a", List.of(new Entry("b_c", v)), one),
            CounterKey.of(v, List.of(new Entry("a_b", "c")), one),
            CounterKey.of(v, List.of(new Entry("a", "b_c")), one),
            CounterKey.of(v, List.of(new Entry("a", "b"), new Entry("c", "d")), one),
            CounterKey.of(v, List.of(new Entry("a", "b|c=d")), one),
            CounterKey.of(v + "|a=b", List.of(new Entry("c", "d")), one));
    assertThat(keys).doesNotHaveDuplicates();

    List<Hit> hits = keys.stream().map(key -> new Hit(key, one, 1)).toList();
    List<Usage> usages = store.acquire(hits).join();
    assertThat(usages).extracting(Usage::countAfter).containsOnly(1L);
    assertThat(usages).extracting(Usage::overLimit).containsOnly(false);
  }

  @Test
  void minuteAndHourLimits_onTheSameEntries_neverShareACounter() {
    RedisCounterStore fake = open("", clock);
    List<Entry> entries = List.of(new Entry("user", key("alice")));
    Hit minute =
        new Hit(CounterKey.of("api", entries, fixed(5, Unit.MINUTE)), fixed(5, Unit.MINUTE), 1);
    Hit hour = new Hit(CounterKey.of("api", entries, fixed(5, Unit.HOUR)), fixed(5, Unit.HOUR), 1);
    for (int i = 1; i <= 3; i++) {
      List<Usage> usages = fake.acquire(List.of(minute, hour)).join();
      assertThat(usages).extracting(Usage::countAfter).containsExactly((long) i, (long) i);
    }
    try (Jedis jedis = redis.client()) {
      assertThat(jedis.get(windowKey("", minute))).isEqualTo("3");
      assertThat(jedis.get(windowKey("", hour))).isEqualTo("3");
    }
  }

  @Test
  void keyPrefix_isPrependedToEveryKey() {
    RedisCounterStore prefixed = open("tenant-a:", clock);
    Hit window = new Hit(key("prefixed-fw"), fixed(5, Unit.HOUR), 2);
    Hit tokens = new Hit(key("prefixed-tb"), bucket(5, Unit.DAY, 5), 2);
    prefixed.acquire(List.of(window, tokens)).join();

    try (Jedis jedis = redis.client()) {
      assertThat(jedis.get(windowKey("tenant-a:", window))).isEqualTo("2");
      assertThat(jedis.exists("tenant-a:" + tokens.key() + "|s")).isTrue();
      assertThat(jedis.exists(windowKey("", window))).isFalse();
      assertThat(jedis.exists(tokens.key() + "|s")).isFalse();
    }
    // Another prefix is another set of counters.
    List<Usage> unprefixed = open("", clock).acquire(List.of(window, tokens)).join();
    assertThat(unprefixed).extracting(Usage::remaining).containsExactly(3L, 3L);
  }

  @Test
  void close_twice_isHarmless() {
    RedisCounterStore closing = open("", clock);
    closing.close();
    closing.close();
  }
}
