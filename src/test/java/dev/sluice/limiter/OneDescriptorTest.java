package dev.sluice.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.assembly.LimiterStack;
import dev.sluice.config.ConsistencyConfig;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.LimiterSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.config.StoreConfig;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Entry;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.Unit;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import dev.sluice.tracing.Tracing;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The usual request, one descriptor, takes the one path every request takes, on its one-element
 * shapes (no match array, its plan's group as the whole charge, one status without an array). For
 * every kind of descriptor, through a run that goes over the limit, with and without the local
 * over-limit cache: the decision is made on the calling thread, on the bare memory store and
 * through the stack {@code serve} builds (consistency router, breaker), and it is the one the same
 * descriptor gets beside an unlimited one (which changes no vote, not even in global quota mode).
 */
class OneDescriptorTest {
  private static final RuleSet RULES =
      InlineRules.load(
          """
          domain: api
          descriptors:
            - key: user
              rate_limit: {unit: minute, requests_per_unit: 3}
            - key: bucket
              rate_limit: {unit: second, requests_per_unit: 2, burst: 3, algorithm: token_bucket}
            - key: several
              rate_limits:
                - {unit: second, requests_per_unit: 2, name: burst}
                - {unit: minute, requests_per_unit: 4}
            - key: shadowed
              shadow_mode: true
              rate_limit: {unit: minute, requests_per_unit: 2}
            - key: quota
              quota_mode: true
              rate_limit: {unit: minute, requests_per_unit: 2}
            - key: strict
              charge_denied: false
              rate_limit: {unit: minute, requests_per_unit: 2}
            - key: detailed
              detailed_metric: true
              rate_limit: {unit: minute, requests_per_unit: 2}
            - key: vip
              rate_limit: {unit: minute, requests_per_unit: 2, replaces: [{name: burst}]}
            - key: free
              rate_limit: {unlimited: true}
          """);

  private static final DescriptorRequest PADDING = DescriptorRequest.of(new Entry("free", "x"));

  static Stream<Arguments> cases() {
    List<LimiterConfig> configs =
        Stream.of(
                SettingValues.defaults(),
                SettingValues.builder().set(LimiterSettings.CHARGE_DENIED, false).build(),
                SettingValues.builder().set(LimiterSettings.SHADOW_MODE, true).build(),
                SettingValues.builder().set(LimiterSettings.QUOTA_MODE, true).build())
            .map(LimiterConfig::from)
            .toList();
    List<DescriptorRequest> descriptors =
        List.of(
            descriptor("user", "alice"),
            descriptor("bucket", "b"),
            descriptor("several", "s"),
            descriptor("shadowed", "x"),
            descriptor("quota", "q"),
            descriptor("strict", "t"),
            descriptor("detailed", "d"),
            descriptor("vip", "v"),
            descriptor("free", "f"),
            descriptor("unknown", "u"),
            descriptor("user", "carol").withOverride(new LimitOverride(2, Unit.MINUTE)),
            descriptor("user", "dave").withHitsAddend(2),
            descriptor("user", "erin").withHitsAddend(0));
    List<Arguments> cases = new ArrayList<>();
    for (LimiterConfig config : configs) {
      for (DescriptorRequest descriptor : descriptors) {
        cases.add(Arguments.of(config, descriptor, false));
        cases.add(Arguments.of(config, descriptor, true));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void answer_oneDescriptor_madeNowAndAsBesideAnUnlimitedOne(
      LimiterConfig config, DescriptorRequest descriptor, boolean overLimitCache)
      throws IOException {
    FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
    SluiceMetrics aloneMetrics = new SluiceMetrics(new PrometheusRegistry());
    SluiceMetrics paddedMetrics = new SluiceMetrics(new PrometheusRegistry());
    RateLimiter alone = limiter(config, clock, overLimitCache, aloneMetrics);
    RateLimiter padded = limiter(config, clock, overLimitCache, paddedMetrics);
    try (LimiterStack stack = servedStack(config, clock, overLimitCache)) {
      RateLimiter served = stack.limiter(DecisionListener.NONE);
      for (int i = 0; i < 5; i++) {
        Answer one = alone.answer(RateLimitCall.of("api", descriptor));
        Answer viaStack = served.answer(RateLimitCall.of("api", descriptor));
        Decision two = padded.decide(RateLimitCall.of("api", descriptor, PADDING)).join();

        assertThat(one).as("made on the calling thread").isInstanceOf(Decision.class);
        assertThat(viaStack).as("made on the calling thread, served").isEqualTo(one);
        Decision decision = (Decision) one;
        assertThat(decision.statuses()).containsExactly(two.statuses().get(0));
        assertThat(two.statuses().get(1)).isEqualTo(DescriptorDecision.UNLIMITED);
        assertThat(decision.overall()).isEqualTo(two.overall());
        clock.advance(Duration.ofMillis(300));
      }
    }
    assertThat(text(aloneMetrics)).isEqualTo(text(paddedMetrics));
  }

  /** Sluice's own series (the JVM's differ from one registry's scrape to the next). */
  private static List<String> text(SluiceMetrics metrics) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.writeText(out);
    return out.toString(StandardCharsets.UTF_8)
        .lines()
        .filter(line -> line.startsWith("sluice_"))
        .toList();
  }

  private static RateLimiter limiter(
      LimiterConfig config, FakeClock clock, boolean cache, SluiceMetrics metrics) {
    return new RateLimiter(
        () -> RULES,
        new RateLimiter.StoreChoice(
            new InMemoryCounterStore(clock, clock),
            Optional.empty(),
            OverLimitCache.of(cache ? 100 : 0, clock, metrics),
            Runnable::run),
        config,
        metrics);
  }

  /** The memory stack {@code serve} builds, with {@code config} and the same cache. */
  private static LimiterStack servedStack(LimiterConfig config, FakeClock clock, boolean cache) {
    LimiterConfig withCache =
        new LimiterConfig(
            config.overrideAlgorithm(),
            config.failureMode(),
            config.instances(),
            config.globalShadowMode(),
            cache ? 100 : 0,
            config.globalQuotaMode(),
            config.nearLimitRatio(),
            config.chargeDenied());
    return LimiterStack.open(
        new LimiterStack.Settings(StoreConfig.memory(), withCache, ConsistencyConfig.defaults()),
        () -> RULES,
        new LimiterStack.Context(
            clock, clock, new SluiceMetrics(new PrometheusRegistry()), Tracing.off()));
  }

  private static DescriptorRequest descriptor(String key, String value) {
    return DescriptorRequest.of(new Entry(key, value));
  }
}
