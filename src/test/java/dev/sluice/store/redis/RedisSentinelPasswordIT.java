package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.RedisTls;
import dev.sluice.config.Secret;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisSentinelExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --redis-sentinel-password}: sentinels with a password of their own ({@code requirepass} on
 * the sentinels, another on the data nodes). With both passwords the store counts; without the
 * sentinels' or with a wrong one it fails in one line that shows neither password.
 */
class RedisSentinelPasswordIT {
  private static final String DATA_PASSWORD = "data-pass-" + UUID.randomUUID();
  private static final String SENTINEL_PASSWORD = "sentinel-pass-" + UUID.randomUUID();

  @RegisterExtension
  static final RedisSentinelExtension sentinel =
      new RedisSentinelExtension(Optional.of(DATA_PASSWORD), Optional.of(SENTINEL_PASSWORD));

  private final List<RedisCounterStore> opened = new ArrayList<>();
  private final String unique = UUID.randomUUID().toString();

  @AfterEach
  void close() {
    opened.forEach(RedisCounterStore::close);
  }

  /**
   * The stores' clock, stopped at the test's start: fixed windows count in the window holding that
   * instant, so no window boundary falls between the hits a test counts.
   */
  private final FakeClock startClock = new FakeClock(Instant.now());

  private RedisCounterStore open(Optional<String> sentinelPassword) {
    RedisEndpoint endpoint =
        RedisEndpoint.parse(
            "redis-sentinel://:"
                + DATA_PASSWORD
                + "@"
                + sentinel.sentinelSeeds()
                + "/"
                + RedisSentinelExtension.MASTER_NAME);
    RedisCounterStore store =
        new RedisCounterStore(
                RedisConfig.builder(endpoint)
                    .tls(RedisTls.DEFAULTS)
                    .sentinelPassword(sentinelPassword.map(Secret::of))
                    .timeout(Duration.ofSeconds(1))
                    .connections(2)
                    .keyPrefix("")
                    .build(),
                startClock,
                new DaemonThreadFactory("sluice-redis-lane"))
            .start();
    opened.add(store);
    return store;
  }

  @Test
  void bothPasswords_countsOnTheMaster() {
    RedisCounterStore store = open(Optional.of(SENTINEL_PASSWORD));
    Hit hit = new Hit("sentinel-pass-" + unique, Limit.of(10, Unit.DAY, Algorithm.FIXED_WINDOW), 1);
    store.ping();
    store.acquire(List.of(hit)).join();
    assertThat(store.acquire(List.of(hit)).join().get(0).countAfter()).isEqualTo(2);
    try (var master = sentinel.client(sentinel.master())) {
      assertThat(RedisProbe.scan(master, "sentinel-pass-" + unique + "*")).hasSize(1);
    }
  }

  @Test
  void noSentinelPassword_isAOneLineErrorWithoutPasswords() {
    RedisCounterStore store = open(Optional.empty());
    assertThatThrownBy(store::ping)
        .isInstanceOf(StoreException.class)
        .hasMessageNotContaining("\n")
        .hasMessageNotContaining(DATA_PASSWORD)
        .hasMessageNotContaining(SENTINEL_PASSWORD);
  }

  @Test
  void wrongSentinelPassword_isAOneLineErrorWithoutPasswords() {
    String wrong = "wrong-" + UUID.randomUUID();
    RedisCounterStore store = open(Optional.of(wrong));
    assertThatThrownBy(store::ping)
        .isInstanceOf(StoreException.class)
        .hasMessageNotContaining("\n")
        .hasMessageNotContaining(wrong)
        .hasMessageNotContaining(DATA_PASSWORD);
  }
}
