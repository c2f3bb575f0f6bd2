package dev.sluice.rlqs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RedisConfig;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code lua/rlqs_demand.lua} through two boards (two instances) on one real redis-server. */
class RedisDemandBoardIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final Duration TTL = Duration.ofSeconds(30);

  private static RedisDemandBoard board() {
    return RedisDemandBoard.open(RedisConfig.of(redis.uri().toString())).orElseThrow();
  }

  @Test
  void exchange_eachInstanceReadsTheOthersDemands_notItsOwn() {
    try (RedisDemandBoard a = board();
        RedisDemandBoard b = board()) {
      a.exchange(Map.of("g", Map.of("c1", 12.5, "c2", Double.POSITIVE_INFINITY)), TTL);

      Map<String, double[]> seenByB = b.exchange(Map.of("g", Map.of("c1", 3.0)), TTL);
      Map<String, double[]> seenByA = a.exchange(Map.of("g", Map.of("c1", 12.5)), TTL);

      assertThat(seenByB.get("g")).containsExactlyInAnyOrder(12.5, Double.POSITIVE_INFINITY);
      // a's c2 left: its field went with a's next exchange, and b sees only c1.
      assertThat(seenByA.get("g")).containsExactly(3.0);
      assertThat(b.exchange(Map.of("g", Map.of("c1", 3.0)), TTL).get("g")).containsExactly(12.5);
    }
  }

  @Test
  void exchange_demandNotRefreshedWithinItsTtl_expires() {
    try (RedisDemandBoard a = board();
        RedisDemandBoard b = board()) {
      a.exchange(Map.of("h", Map.of("c1", 7.0)), Duration.ofMillis(50));

      Eventually.await(
          Duration.ofSeconds(10),
          "a's demand to expire",
          () -> b.exchange(Map.of("h", Map.of("c1", 1.0)), TTL).get("h").length == 0);
    }
  }

  @Test
  void exchange_scriptFlushed_sentAgainWithEval() {
    try (RedisDemandBoard a = board();
        RedisDemandBoard b = board()) {
      a.exchange(Map.of("k", Map.of("c1", 5.0)), TTL);
      redis.client().scriptFlush();

      assertThat(b.exchange(Map.of("k", Map.of("c1", 1.0)), TTL).get("k")).containsExactly(5.0);
    }
  }
}
