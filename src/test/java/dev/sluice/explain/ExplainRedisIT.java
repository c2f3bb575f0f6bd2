package dev.sluice.explain;

import static dev.sluice.explain.ExplainerTest.call;
import static dev.sluice.explain.ExplainerTest.descriptor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.LimiterConfig;
import dev.sluice.config.RedisConfig;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.redis.RedisCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.threads.DaemonThreadFactory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Explaining against a real Redis reads the counters requests wrote and never changes them. The
 * store counts fixed windows on a {@link FakeClock}, so the minute window cannot roll over between
 * the requests and the explanations; the bucket refills on Redis's real clock, so it refills per
 * hour here (a per-second bucket would refill while a loaded machine runs the test).
 */
class ExplainRedisIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final RuleSet RULES =
      InlineRules.load(
          """
          domain: api
          descriptors:
            - key: user
              rate_limit: {unit: minute, requests_per_unit: 5, name: per-user}
            - key: trial
              shadow_mode: true
              rate_limit: {unit: minute, requests_per_unit: 1}
            - key: bucket
              rate_limit: {unit: hour, requests_per_unit: 2, algorithm: token_bucket, burst: 4}
          """);

  private final RedisCounterStore store =
      new RedisCounterStore(
              RedisConfig.builder(redis.endpoint())
                  .timeout(Duration.ofSeconds(2))
                  .connections(2)
                  .keyPrefix("explain:")
                  .build(),
              FakeClock.atEpochSecond(1_700_000_000L - 8),
              new DaemonThreadFactory("explain-redis-lane"))
          .start();
  private final RateLimiter limiter =
      new RateLimiter(
          () -> RULES,
          RateLimiter.StoreChoice.of(store),
          LimiterConfig.defaults(),
          new SluiceMetrics(new PrometheusRegistry()));
  private final Explainer explainer = new Explainer(() -> RULES, store, Algorithm.FIXED_WINDOW);

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void explain_onRedis_showsTheCountsRequestsLeftAndNeverChangesAnyKey() {
    RateLimitCall call =
        call(descriptor("user=dora"), descriptor("bucket=b"), descriptor("trial=t"));
    for (int i = 0; i < 3; i++) {
      limiter.decide(call).join();
    }
    Map<String, String> before = dump();

    Explanation explanation = null;
    for (int i = 0; i < 10; i++) {
      explanation = explainer.explain(call).join();
    }

    assertThat(dump()).isEqualTo(before);
    Effect.Counted user = (Effect.Counted) explanation.descriptors().get(0).effect();
    assertThat(user.counter().storeKey()).startsWith("explain:fw|60|api|user=dora|");
    assertThat(user.counter().usage().countAfter()).isEqualTo(3);
    assertThat(before.get(user.counter().storeKey())).isEqualTo("3");
    Effect.Counted bucket = (Effect.Counted) explanation.descriptors().get(1).effect();
    assertThat(bucket.counter().exists()).isTrue();
    assertThat(bucket.counter().usage().remaining()).isEqualTo(1);
    assertThat(limiter.decide(call(descriptor("user=dora"))).join().statuses().get(0).remaining())
        .isEqualTo(1);
  }

  /** Every key with its value (strings) or fields (hashes, token bucket state minus nothing). */
  private static Map<String, String> dump() {
    Map<String, String> all = new TreeMap<>();
    try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
      for (String key : jedis.keys("*")) {
        all.put(
            key,
            jedis.type(key).equals("hash")
                ? new TreeMap<>(jedis.hgetAll(key)).toString()
                : jedis.get(key));
      }
    }
    return all;
  }
}
