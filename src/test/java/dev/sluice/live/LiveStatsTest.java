package dev.sluice.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.LimiterConfig;
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
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The live view fed by the real limiter on the memory store, on a fake clock. */
class LiveStatsTest {
  private static final RuleSet RULES =
      InlineRules.load(
          """
          domain: api
          descriptors:
            - key: user
              rate_limit: {unit: minute, requests_per_unit: 2}
            - key: client
              detailed_metric: true
              rate_limit: {unit: minute, requests_per_unit: 1}
            - key: trial
              shadow_mode: true
              rate_limit: {unit: minute, requests_per_unit: 0}
            - key: plan
              rate_limit: {unit: month, time_zone: Europe/Berlin, requests_per_unit: 3}
            - key: quarter
              rate_limit: {unit: minute, unit_multiplier: 15, requests_per_unit: 100}
          """);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_040L);
  private final LiveStats live = new LiveStats(clock, new byte[] {1, 2, 3});
  private final RateLimiter limiter =
      new RateLimiter(
          () -> RULES,
          RateLimiter.StoreChoice.of(new InMemoryCounterStore(clock, clock)),
          LimiterConfig.defaults(),
          new SluiceMetrics(new PrometheusRegistry()),
          live);

  private void decide(String key, String value) {
    limiter.decide(RateLimitCall.of("api", DescriptorRequest.of(new Entry(key, value)))).join();
  }

  @Test
  void snapshot_countsDecisionsAndRefusalsPerSecondPerRule() {
    for (int i = 0; i < 5; i++) {
      decide("user", "alice"); // limit 2: 2 allowed, 3 refused
    }
    clock.advance(Duration.ofSeconds(1));
    decide("user", "bob");

    LiveSnapshot.RuleView user = live.snapshot().rules().get(0);
    assertThat(user.rule()).isEqualTo("user");
    int last = LiveStats.WINDOW_SECONDS - 1;
    assertThat(user.decisions()[last - 1]).isEqualTo(5);
    assertThat(user.refusals()[last - 1]).isEqualTo(3);
    assertThat(user.decisions()[last]).isEqualTo(1);
    assertThat(user.refusals()[last]).isZero();
    assertThat(user.totals()).isEqualTo(new RateSeries.Totals(6, 3, 6, 3));
  }

  @Test
  void snapshot_topRefused_hashesValuesUnlessDetailedMetric() {
    for (int i = 0; i < 3; i++) {
      decide("user", "alice");
      decide("client", "acme");
    }

    assertThat(live.snapshot().topRefused())
        .extracting(
            LiveSnapshot.KeyView::rule, LiveSnapshot.KeyView::key, LiveSnapshot.KeyView::count)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("client", "client=acme", 2L),
            org.assertj.core.groups.Tuple.tuple(
                "user", "user=#" + new ValueHasher(new byte[] {1, 2, 3}).hash("alice"), 1L));
    assertThat(live.snapshot().topRefused().get(1).key()).doesNotContain("alice");
  }

  @Test
  void snapshot_shadowMode_countsOverLimitHitsButNoRefusals() {
    decide("trial", "x");

    LiveSnapshot snapshot = live.snapshot();
    assertThat(snapshot.rules())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.totals()).isEqualTo(new RateSeries.Totals(1, 0, 1, 1));
            });
    assertThat(snapshot.topRefused()).isEmpty();
  }

  @Test
  void snapshot_eachRule_showsItsLimitWithTheWindow() {
    decide("plan", "p");
    decide("quarter", "q");
    decide("user", "u");

    assertThat(live.snapshot().rules())
        .extracting(LiveSnapshot.RuleView::rule, LiveSnapshot.RuleView::limit)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "plan", "3 per calendar month in Europe/Berlin, fixed_window"),
            org.assertj.core.groups.Tuple.tuple("quarter", "100 per 15 minutes, fixed_window"),
            org.assertj.core.groups.Tuple.tuple("user", "2 per minute, fixed_window"));
  }

  @Test
  void snapshot_refusalsOlderThanTwoMinutes_leaveTheTopList() {
    decide("client", "acme");
    decide("client", "acme");
    clock.advance(Duration.ofSeconds(125));

    assertThat(live.snapshot().topRefused()).isEmpty();
  }
}
