package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RedisConfig;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.FixedWindow;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * How the store talks to Redis: one round trip per request, and the NOSCRIPT fallback that re-sends
 * only the script entry. Round trips are counted by the server ({@code total_reads_processed}: one
 * socket read per batch a client sends at once), commands by {@code INFO commandstats}.
 */
class RedisPipelineIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final Limit HOURLY = Limit.of(10, Unit.HOUR, Algorithm.FIXED_WINDOW);
  private static final Limit DAILY_BUCKET = new Limit(10, Unit.DAY, Algorithm.TOKEN_BUCKET, 5);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_002_800L);
  private final String unique = UUID.randomUUID().toString();
  private final RedisCounterStore store =
      new RedisCounterStore(
              RedisConfig.builder(redis.endpoint())
                  .timeout(Duration.ofSeconds(2))
                  .connections(4)
                  .keyPrefix("")
                  .build(),
              clock,
              new DaemonThreadFactory("sluice-redis-lane"))
          .start();
  private final Jedis admin = redis.client();

  @AfterEach
  void close() {
    store.close();
    admin.close();
  }

  private Hit window(String name) {
    return new Hit(name + "-" + unique, HOURLY, 1);
  }

  private Hit bucket(String name, long hits) {
    return new Hit(name + "-" + unique, DAILY_BUCKET, hits);
  }

  @Test
  void construction_cachesTheTokenBucketScript() {
    LuaScript script = LuaScript.fromResource("lua/token_bucket.lua");
    assertThat(admin.scriptExists(script.sha1())).isTrue();
  }

  @Test
  void acquire_fiveDescriptors_isOneRoundTripOfTheExpectedCommands() {
    List<Hit> hits = List.of(window("a"), window("b"), window("c"), bucket("d", 1), bucket("e", 2));
    store.acquire(hits).join(); // the lane's connection is warm from here on

    RedisProbe.Snapshot first = RedisProbe.snapshot(admin);
    RedisProbe.Snapshot before = RedisProbe.snapshot(admin);
    List<Usage> usages = store.acquire(hits).join();
    RedisProbe.Snapshot after = RedisProbe.snapshot(admin);

    long readsPerInfo = before.reads() - first.reads();
    assertThat(after.reads() - before.reads() - readsPerInfo).as("round trips").isEqualTo(1);
    assertThat(usages).extracting(Usage::remaining).containsExactly(8L, 8L, 8L, 3L, 1L);
    long index = FixedWindow.index(clock.millis(), Unit.HOUR.millis());
    for (Hit hit : hits.subList(0, 3)) {
      String key = hit.key() + "|" + index;
      assertThat(admin.get(key)).as("%s counted twice", key).isEqualTo("2");
      assertThat(admin.pttl(key)).as("%s expires", key).isPositive();
    }
    for (Hit hit : hits.subList(3, 5)) {
      assertThat(admin.pttl(hit.key() + "|s")).as("%s expires", hit.key()).isPositive();
    }
  }

  @Test
  void acquire_afterScriptFlush_reEvaluatesOnlyTheScriptEntry() {
    Hit counted = window("flushed-fw");
    Hit taken = bucket("flushed-tb", 2);
    admin.scriptFlush();
    RedisProbe.Snapshot before = RedisProbe.snapshot(admin);

    List<Usage> usages = store.acquire(List.of(counted, taken)).join();

    RedisProbe.Snapshot after = RedisProbe.snapshot(admin);
    assertThat(usages.get(0).countAfter()).isEqualTo(1);
    assertThat(usages.get(0).remaining()).isEqualTo(9);
    assertThat(usages.get(1).overLimit()).isFalse();
    assertThat(usages.get(1).remaining()).isEqualTo(3);
    long index = FixedWindow.index(clock.millis(), Unit.HOUR.millis());
    assertThat(admin.get(counted.key() + "|" + index)).as("counted once").isEqualTo("1");
    assertThat(admin.pttl(counted.key() + "|" + index)).as("expires").isPositive();
    // Only the bucket is a script: it alone is sent again, with EVAL.
    assertThat(before.callsUntil(after, "eval")).as("the bucket script, once").isEqualTo(1);

    // EVAL cached the script again: the next request needs no fallback.
    store.acquire(List.of(counted, taken)).join();
    assertThat(after.callsUntil(RedisProbe.snapshot(admin), "eval")).isZero();
  }
}
