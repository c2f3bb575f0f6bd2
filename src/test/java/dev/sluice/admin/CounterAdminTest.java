package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.LimiterConfig;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.DescriptorRequest;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Entry;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The counter a real request creates is the one inspect and reset touch, for both algorithms, on
 * the real memory store: if the admin side built keys differently, inspect would see nothing and
 * reset would leave the request's counter as it was.
 */
class CounterAdminTest {
  private static final RuleSet RULES =
      InlineRules.load(
          """
          domain: api
          descriptors:
            - key: fixed_window
              rate_limit: {unit: minute, requests_per_unit: 5}
            - key: token_bucket
              rate_limit: {unit: minute, requests_per_unit: 5, algorithm: token_bucket, burst: 5}
            - key: path
              value: /api/*
              share_threshold: true
              rate_limit: {unit: minute, requests_per_unit: 5}
          """);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final InMemoryCounterStore store = new InMemoryCounterStore(clock, clock);
  private final RateLimiter limiter =
      new RateLimiter(
          () -> RULES,
          RateLimiter.StoreChoice.of(store),
          LimiterConfig.defaults(),
          new SluiceMetrics(new PrometheusRegistry()));
  private final CounterAdmin admin =
      new CounterAdmin(() -> RULES, store, (domain, label) -> Optional.empty());

  @AfterEach
  void close() {
    store.close();
  }

  private long remainingAfterRequest(String key, String value) {
    Decision decision =
        limiter.decide(RateLimitCall.of("api", DescriptorRequest.of(new Entry(key, value)))).join();
    return decision.statuses().get(0).remaining();
  }

  @ParameterizedTest
  @ValueSource(strings = {"fixed_window", "token_bucket"})
  void inspectAndReset_touchTheCounterARequestCreated(String algorithm) {
    remainingAfterRequest(algorithm, "alice");
    assertThat(remainingAfterRequest(algorithm, "alice")).isEqualTo(3);

    CounterAdmin.Found inspected =
        admin.inspect("api", List.of(new Entry(algorithm, "alice"))).join().orElseThrow();
    assertThat(inspected.counter().exists()).isTrue();
    assertThat(inspected.counter().usage().remaining()).isEqualTo(3);
    assertThat(inspected.rule().path()).isEqualTo(algorithm);

    assertThat(
            admin
                .reset("api", List.of(new Entry(algorithm, "alice")))
                .join()
                .orElseThrow()
                .counter()
                .exists())
        .isTrue();
    assertThat(remainingAfterRequest(algorithm, "alice")).as("a fresh counter").isEqualTo(4);
    assertThat(remainingAfterRequest(algorithm, "bob")).as("others untouched").isEqualTo(4);
  }

  @Test
  void inspect_sharedThresholdWildcard_findsTheOneSharedCounter() {
    remainingAfterRequest("path", "/api/a");
    remainingAfterRequest("path", "/api/b");
    assertThat(
            admin
                .inspect("api", List.of(new Entry("path", "/api/zzz")))
                .join()
                .orElseThrow()
                .counter()
                .usage()
                .remaining())
        .isEqualTo(3);
  }

  @Test
  void inspect_noCountedRule_isEmpty() {
    assertThat(admin.inspect("api", List.of(new Entry("nobody", "x"))).join()).isEmpty();
    assertThat(admin.inspect("other", List.of(new Entry("fixed_window", "x"))).join()).isEmpty();
  }
}
