package dev.sluice.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.LimiterConfig;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.Unit;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The parts of a rule's plans kept across its requests ({@link RuleParts}): what a request reports
 * must still be its own snapshot's rule, and a series that names request values its own values.
 */
class RulePartsTest {
  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
  private final AtomicReference<RuleSet> rules = new AtomicReference<>();
  private final RateLimiter limiter =
      new RateLimiter(
          rules::get,
          RateLimiter.StoreChoice.of(new InMemoryCounterStore(clock, clock)),
          LimiterConfig.defaults(),
          metrics);

  @Test
  void reload_sameRuleWithAnotherLimitAndName_reportsTheNewOnes() {
    rules.set(userRule("{unit: minute, requests_per_unit: 5, name: old}", ""));
    DescriptorDecision before = decide("user", "alice");
    rules.set(
        userRule("{unit: minute, requests_per_unit: 7, name: new}", "  metadata: {tier: gold}\n"));
    DescriptorDecision after = decide("user", "alice");

    assertThat(before.currentLimit())
        .contains(new CurrentLimit(Limit.of(5, Unit.MINUTE, Algorithm.FIXED_WINDOW), "old"));
    assertThat(after.currentLimit())
        .contains(
            new CurrentLimit(
                Limit.of(7, Unit.MINUTE, Algorithm.FIXED_WINDOW), "new", Map.of("tier", "gold")));
    assertThat(after.policies()).containsExactly(after.currentLimit().orElseThrow());
  }

  @Test
  void decide_twoRulesOfOneSnapshot_eachReportsItsOwnLimit() {
    rules.set(
        InlineRules.load(
            """
            domain: api
            descriptors:
              - key: user
                rate_limit: {unit: minute, requests_per_unit: 5, name: users}
              - key: client
                rate_limit: {unit: hour, requests_per_unit: 9, name: clients}
            """));

    assertThat(decide("user", "a").currentLimit().orElseThrow().name()).isEqualTo("users");
    assertThat(decide("client", "b").currentLimit().orElseThrow().name()).isEqualTo("clients");
    assertThat(decide("user", "c").currentLimit().orElseThrow().limit().requestsPerUnit())
        .isEqualTo(5);
  }

  @Test
  void decide_detailedMetricRule_recordsEachRequestsOwnValues() throws IOException {
    rules.set(
        InlineRules.load(
            """
            domain: api
            descriptors:
              - key: client
                detailed_metric: true
                rate_limit: {unit: minute, requests_per_unit: 9}
            """));

    decide("client", "acme");
    decide("client", "globex");

    assertThat(scrape()).contains("client_acme").contains("client_globex");
  }

  private static RuleSet userRule(String rateLimit, String extra) {
    return InlineRules.load(
        "domain: api\ndescriptors:\n- key: user\n  rate_limit: " + rateLimit + "\n" + extra);
  }

  private DescriptorDecision decide(String key, String value) {
    return limiter
        .decide(RateLimitCall.of("api", DescriptorRequest.of(new Entry(key, value))))
        .join()
        .statuses()
        .get(0);
  }

  private String scrape() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.writeText(out);
    return out.toString(StandardCharsets.UTF_8);
  }
}
