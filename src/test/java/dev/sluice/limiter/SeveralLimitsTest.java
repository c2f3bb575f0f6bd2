package dev.sluice.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.LimiterConfig;
import dev.sluice.config.LimiterSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.Unit;
import dev.sluice.store.CounterKey;
import dev.sluice.store.Hit;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Several limits on one descriptor ({@code rate_limits}) and {@code charge_denied}, decided by the
 * real limiter on the memory store and a {@link FakeClock}: what is charged, and each status field.
 */
class SeveralLimitsTest {
  private static final RuleSet RULES =
      InlineRules.load(
          """
          domain: api
          descriptors:
            - key: user
              rate_limits:
                - {unit: second, requests_per_unit: 3, name: burst}
                - {unit: minute, requests_per_unit: 5}
            - key: mixed
              rate_limits:
                - {unit: second, requests_per_unit: 10}
                - {unit: hour, requests_per_unit: 20, algorithm: token_bucket}
                - {unit: minute, requests_per_unit: 15, algorithm: sliding_window}
            - key: vip
              rate_limit: {unit: minute, requests_per_unit: 100, replaces: [{name: burst}]}
            - key: strict
              charge_denied: false
              rate_limit: {unit: minute, requests_per_unit: 10}
            - key: blocked
              rate_limit: {unit: minute, requests_per_unit: 0}
            - key: shadowed
              shadow_mode: true
              rate_limit: {unit: minute, requests_per_unit: 0}
            - key: quota
              value: over
              quota_mode: true
              rate_limit: {unit: minute, requests_per_unit: 0}
            - key: quota
              value: ok
              quota_mode: true
              rate_limit: {unit: minute, requests_per_unit: 10}
            - key: lenient
              charge_denied: true
              rate_limit: {unit: minute, requests_per_unit: 2}
          """);

  /** 12 seconds into a minute. */
  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L - 8);

  private final InMemoryCounterStore memory = new InMemoryCounterStore(clock, clock);
  private final List<CountedOutcome> outcomes = new CopyOnWriteArrayList<>();

  private RateLimiter limiter(boolean chargeDenied) {
    return new RateLimiter(
        () -> RULES,
        RateLimiter.StoreChoice.of(memory),
        LimiterConfig.from(
            SettingValues.builder().set(LimiterSettings.CHARGE_DENIED, chargeDenied).build()),
        new SluiceMetrics(new PrometheusRegistry()),
        outcomes::add);
  }

  private final RateLimiter limiter = limiter(true);

  @Test
  void rateLimits_everyLimitAllows_chargesAllAndReportsTheClosestToRunningOut() {
    DescriptorDecision first = status(limiter, "user=alice");
    assertThat(first.code()).isEqualTo(Code.OK);
    // After one hit: 2 of 3 per second (0.67) and 4 of 5 per minute (0.8) are left.
    assertThat(first.currentLimit().orElseThrow().name()).isEqualTo("burst");
    assertThat(first.remaining()).isEqualTo(2);
    assertThat(first.untilReset()).contains(Duration.ofSeconds(1));
    assertThat(first.policies())
        .extracting(p -> p.limit().requestsPerUnit())
        .containsExactly(3L, 5L);
    assertThat(count("user=alice", Unit.SECOND)).isEqualTo(1);
    assertThat(count("user=alice", Unit.MINUTE)).isEqualTo(1);
  }

  @Test
  void rateLimits_oneRefuses_chargesNoneAndReportsTheRefusingLimit() {
    for (int i = 0; i < 3; i++) {
      assertThat(status(limiter, "user=alice").code()).isEqualTo(Code.OK);
    }
    DescriptorDecision refused = status(limiter, "user=alice");
    assertThat(refused.code()).isEqualTo(Code.OVER_LIMIT);
    assertThat(refused.currentLimit().orElseThrow().name()).isEqualTo("burst");
    assertThat(refused.remaining()).isZero();
    assertThat(refused.untilReset()).contains(Duration.ofSeconds(1));
    assertThat(count("user=alice", Unit.MINUTE)).as("the minute is not charged").isEqualTo(3);
    assertThat(count("user=alice", Unit.SECOND)).as("nor the second").isEqualTo(3);

    clock.advance(Duration.ofSeconds(1));
    assertThat(status(limiter, "user=alice").code()).isEqualTo(Code.OK);
    assertThat(status(limiter, "user=alice").code()).isEqualTo(Code.OK);
    DescriptorDecision minute = status(limiter, "user=alice");
    assertThat(minute.code()).isEqualTo(Code.OVER_LIMIT);
    assertThat(minute.currentLimit().orElseThrow().limit().unit()).isEqualTo(Unit.MINUTE);
    assertThat(minute.untilReset()).contains(Duration.ofSeconds(47));
    assertThat(count("user=alice", Unit.SECOND)).isEqualTo(2);
  }

  @Test
  void rateLimits_mixedAlgorithms_allowOnlyWhatTheTightestAllows() {
    int allowed = 0;
    for (int i = 0; i < 40; i++) {
      allowed += status(limiter, "mixed=x").code() == Code.OK ? 1 : 0;
    }
    assertThat(allowed).as("10 per second is the tightest").isEqualTo(10);
    clock.advance(Duration.ofSeconds(1));
    for (int i = 0; i < 40; i++) {
      allowed += status(limiter, "mixed=x").code() == Code.OK ? 1 : 0;
    }
    assertThat(allowed).as("then the sliding 15 per minute").isEqualTo(15);
  }

  @Test
  void rateLimits_metrics_onePerLimitByNameOrPathAndUnit() {
    status(limiter, "user=alice");
    assertThat(outcomes).extracting(CountedOutcome::rule).containsExactly("burst", "user:minute");
  }

  @Test
  void rateLimits_namedLimitReplaced_dropsOnlyThatLimit() {
    Decision decision = limiter.decide(call(descriptor("user=bob"), descriptor("vip=bob"))).join();
    assertThat(decision.statuses().get(0).policies())
        .extracting(p -> p.limit().unit())
        .containsExactly(Unit.MINUTE);
    assertThat(count("user=bob", Unit.SECOND)).isZero();
  }

  @Test
  void rateLimits_override_replacesEveryLimitOfTheDescriptor() {
    DescriptorRequest overridden =
        descriptor("user=carol").withOverride(new LimitOverride(1, Unit.HOUR));
    DescriptorDecision status = limiter.decide(call(overridden)).join().statuses().get(0);
    assertThat(status.policies()).hasSize(1);
    assertThat(status.currentLimit().orElseThrow().limit().unit()).isEqualTo(Unit.HOUR);
    assertThat(count("user=carol", Unit.SECOND)).isZero();
    assertThat(limiter.decide(call(overridden)).join().overall()).isEqualTo(Code.OVER_LIMIT);
  }

  @Test
  void chargeDeniedFalse_refusedDescriptor_isNotCharged() {
    RateLimiter strict = limiter(false);
    // A rule without charge_denied follows the setting: 'strict' sets false itself.
    for (int i = 0; i < 10; i++) {
      status(strict, "strict=a");
    }
    DescriptorRequest big = descriptor("strict=a").withHitsAddend(5);
    assertThat(strict.decide(call(big)).join().overall()).isEqualTo(Code.OVER_LIMIT);
    assertThat(fixedCount("strict=a", 10)).as("the refused 5 are not counted").isEqualTo(10);
  }

  @Test
  void chargeDeniedFalse_requestRefusedByAnotherDescriptor_chargesNothingOfIt() {
    Decision decision =
        limiter.decide(call(descriptor("strict=b"), descriptor("blocked=x"))).join();
    assertThat(decision.overall()).isEqualTo(Code.OVER_LIMIT);
    assertThat(decision.statuses().get(0).code()).isEqualTo(Code.OK);
    assertThat(fixedCount("strict=b", 10)).isZero();
    assertThat(fixedCount("blocked=x", 0)).as("charge_denied true: charged").isEqualTo(1);
  }

  @Test
  void chargeDeniedFalse_shadowModeRefusal_doesNotRefuseTheRequest_soOthersAreCharged() {
    Decision decision =
        limiter.decide(call(descriptor("strict=c"), descriptor("shadowed=x"))).join();
    assertThat(decision.overall()).isEqualTo(Code.OK);
    assertThat(fixedCount("strict=c", 10)).isEqualTo(1);
  }

  @Test
  void chargeDeniedFalse_quotaMode_refusesOnlyWhenEveryQuotaDescriptorRefuses() {
    Decision oneOver =
        limiter
            .decide(call(descriptor("strict=d"), descriptor("quota=over"), descriptor("quota=ok")))
            .join();
    assertThat(oneOver.overall()).isEqualTo(Code.OK);
    assertThat(fixedCount("strict=d", 10)).isEqualTo(1);

    Decision allOver =
        limiter.decide(call(descriptor("strict=d"), descriptor("quota=over"))).join();
    assertThat(allOver.overall()).isEqualTo(Code.OVER_LIMIT);
    assertThat(fixedCount("strict=d", 10)).isEqualTo(1);
  }

  @Test
  void chargeDeniedSetting_false_lenientRuleStillChargedWhenRefused() {
    RateLimiter strict = limiter(false);
    for (int i = 0; i < 4; i++) {
      status(strict, "lenient=x");
    }
    assertThat(fixedCount("lenient=x", 2)).as("charge_denied: true on the rule").isEqualTo(4);
  }

  private DescriptorDecision status(RateLimiter on, String entries) {
    return on.decide(call(descriptor(entries))).join().statuses().get(0);
  }

  private long count(String entries, Unit unit) {
    Limit limit =
        RULES.match("api", entries(entries)).orElseThrow().rule().limits().stream()
            .map(named -> named.limit())
            .filter(l -> l.unit() == unit)
            .findFirst()
            .orElseThrow();
    String key = CounterKey.ofSeveral(CounterKey.group("api", entries(entries)), limit);
    return used(key, limit);
  }

  private long fixedCount(String entries, long perMinute) {
    Limit limit = Limit.of(perMinute, Unit.MINUTE, Algorithm.FIXED_WINDOW);
    return used(CounterKey.of("api", entries(entries), limit), limit);
  }

  /** Hits a fixed-window counter holds, read without charging. */
  private long used(String key, Limit limit) {
    return memory.inspect(new Hit(key, limit, 0)).join().usage().countAfter();
  }

  private static RateLimitCall call(DescriptorRequest... descriptors) {
    return RateLimitCall.of("api", descriptors);
  }

  private static DescriptorRequest descriptor(String entries) {
    return new DescriptorRequest(
        entries(entries), Optional.empty(), java.util.OptionalLong.empty());
  }

  private static List<Entry> entries(String text) {
    List<Entry> entries = new ArrayList<>();
    for (String pair : text.trim().split("\\s+")) {
      int eq = pair.indexOf('=');
      entries.add(new Entry(pair.substring(0, eq), pair.substring(eq + 1)));
    }
    return entries;
  }
}
