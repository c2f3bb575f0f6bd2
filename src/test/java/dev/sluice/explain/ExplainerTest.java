package dev.sluice.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.LimiterConfig;
import dev.sluice.limiter.DescriptorRequest;
import dev.sluice.limiter.LimitOverride;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.Unit;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Explanations against the real limiter's own store on a fake clock: each effect, the counter a
 * request really counts, and that explaining never counts.
 */
class ExplainerTest {
  static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: minute, requests_per_unit: 5, name: per-user}
        - key: vip
          rate_limit: {unit: minute, requests_per_unit: 50, replaces: [{name: per-user}]}
        - key: internal
          rate_limit: {unlimited: true}
        - key: health
        - key: trial
          shadow_mode: true
          rate_limit: {unit: minute, requests_per_unit: 1}
        - key: bucket
          rate_limit: {unit: second, requests_per_unit: 2, algorithm: token_bucket, burst: 4}
      """;

  private static final RuleSet RULE_SET = InlineRules.load(RULES);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L - 8);
  private final InMemoryCounterStore store = new InMemoryCounterStore(clock, clock);
  private final RateLimiter limiter =
      new RateLimiter(
          () -> RULE_SET,
          RateLimiter.StoreChoice.of(store),
          LimiterConfig.defaults(),
          new SluiceMetrics(new PrometheusRegistry()));
  private final Explainer explainer = new Explainer(() -> RULE_SET, store, Algorithm.FIXED_WINDOW);

  @Test
  void explain_countedRule_showsTheCounterRequestsCountWithoutCounting() {
    RateLimitCall call = call(descriptor("user=alice"));
    limiter.decide(call).join();
    limiter.decide(call).join();

    Explanation first = explainer.explain(call).join();
    Explanation second = explainer.explain(call).join();

    Effect.Counted counted = (Effect.Counted) first.descriptors().get(0).effect();
    assertThat(counted.counter().exists()).isTrue();
    assertThat(counted.counter().usage().countAfter()).isEqualTo(2);
    assertThat(counted.counter().usage().remaining()).isEqualTo(3);
    assertThat(counted.nextOverLimit()).isFalse();
    assertThat(first.descriptors().get(0).rule().orElseThrow().origin()).endsWith(":3");
    assertThat(second).isEqualTo(first);
    // The next real request is the third: explaining twice consumed nothing.
    assertThat(limiter.decide(call).join().statuses().get(0).remaining()).isEqualTo(2);
  }

  @Test
  void explain_countedRuleAtItsLimit_saysTheNextRequestWouldBeOverLimit() {
    RateLimitCall call = call(descriptor("user=bob"));
    for (int i = 0; i < 5; i++) {
      limiter.decide(call).join();
    }

    Effect.Counted counted = counted(explainer.explain(call).join());

    assertThat(counted.nextOverLimit()).isTrue();
    assertThat(ExplainText.render(explainer.explain(call).join()))
        .contains("a request now would be OVER_LIMIT")
        .contains("5 counted, 0 remaining");
  }

  @Test
  void explain_replacedRule_namesTheRuleThatReplacesIt() {
    Explanation explanation =
        explainer.explain(call(descriptor("user=alice"), descriptor("vip=alice"))).join();

    assertThat(explanation.descriptors().get(0).effect())
        .isEqualTo(new Effect.Replaced(List.of("api.vip")));
    assertThat(explanation.descriptors().get(1).effect()).isInstanceOf(Effect.Counted.class);
  }

  @Test
  void explain_fixedAnswers_unlimitedExemptNoMatchUnknownDomain() {
    Explanation explanation =
        explainer
            .explain(call(descriptor("internal=x"), descriptor("health=x"), descriptor("nope=x")))
            .join();
    Explanation unknown =
        explainer.explain(RateLimitCall.of("elsewhere", descriptor("user=alice"))).join();

    assertThat(explanation.descriptors())
        .extracting(DescriptorExplanation::effect)
        .containsExactly(new Effect.Unlimited(), new Effect.NoRateLimit(), new Effect.NoMatch());
    assertThat(unknown.domainKnown()).isFalse();
    assertThat(unknown.descriptors().get(0).effect()).isEqualTo(new Effect.UnknownDomain());
    assertThat(unknown.descriptors().get(0).steps()).isEmpty();
  }

  @Test
  void explain_shadowRuleOverItsLimit_saysItIsAnsweredOk() {
    RateLimitCall call = call(descriptor("trial=x"));
    limiter.decide(call).join();

    Effect.Counted counted = counted(explainer.explain(call).join());

    assertThat(counted.shadowMode()).isTrue();
    assertThat(counted.nextOverLimit()).isTrue();
    assertThat(ExplainText.render(explainer.explain(call).join()))
        .contains("over the limit, answered OK (shadow)");
  }

  @Test
  void explain_tokenBucket_andOverride_useTheRequestPathsKeys() {
    RateLimitCall bucket = call(descriptor("bucket=b"));
    limiter.decide(bucket).join();
    RateLimitCall override =
        call(descriptor("user=carol").withOverride(new LimitOverride(7, Unit.HOUR)));
    limiter.decide(override).join();

    Effect.Counted tb = counted(explainer.explain(bucket).join());
    Effect.Counted ov = counted(explainer.explain(override).join());

    assertThat(tb.counter().usage().remaining()).isEqualTo(3);
    assertThat(tb.hit().key()).startsWith("tb|");
    assertThat(ov.override()).isTrue();
    assertThat(ov.counter().usage().remaining()).isEqualTo(6);
    assertThat(explainer.explain(override).join().descriptors().get(0).steps()).isEmpty();
  }

  @Test
  void render_showsEveryCandidateTheRuleTheKeyAndTheCounter() {
    String text = ExplainText.render(explainer.explain(call(descriptor("user=alice"))).join());

    assertThat(text)
        .contains("descriptor 1: user=alice")
        .contains("exact \"alice\"")
        .contains("not configured")
        .contains("key only")
        .contains("taken  api.user")
        .contains("api.user \"per-user\" at ")
        .contains("5 per minute, fixed_window")
        .contains("key      fw|60|api|user=alice")
        .contains("none yet (a fresh window), 5 remaining");
  }

  @Test
  void render_windowOtherThanOneUnit_namesTheWindowAndItsKey() {
    RuleSet rules =
        InlineRules.load(
            """
            domain: api
            descriptors:
              - key: quarter
                rate_limit: {unit: minute, unit_multiplier: 15, requests_per_unit: 100}
              - key: plan
                rate_limit: {unit: month, time_zone: Europe/Berlin, requests_per_unit: 3}
            """);
    Explainer windows = new Explainer(() -> rules, store, Algorithm.FIXED_WINDOW);

    assertThat(ExplainText.render(windows.explain(call(descriptor("quarter=q"))).join()))
        .contains("100 per 15 minutes, fixed_window")
        .contains("key      fw|900|api|quarter=q");
    assertThat(ExplainText.render(windows.explain(call(descriptor("plan=p"))).join()))
        .contains("3 per calendar month in Europe/Berlin, fixed_window")
        .contains("key      fw|month@Europe/Berlin|api|plan=p");
  }

  private static Effect.Counted counted(Explanation explanation) {
    return (Effect.Counted) explanation.descriptors().get(0).effect();
  }

  static RateLimitCall call(DescriptorRequest... descriptors) {
    return RateLimitCall.of("api", descriptors);
  }

  static DescriptorRequest descriptor(String text) {
    List<Entry> entries = new ArrayList<>();
    for (String pair : text.split(",")) {
      int eq = pair.indexOf('=');
      entries.add(new Entry(pair.substring(0, eq), pair.substring(eq + 1)));
    }
    return new DescriptorRequest(
        entries, java.util.Optional.empty(), java.util.OptionalLong.empty());
  }
}
