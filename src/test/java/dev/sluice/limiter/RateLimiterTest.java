package dev.sluice.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.LimiterConfig;
import dev.sluice.config.LimiterSettings;
import dev.sluice.config.RulesSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.Unit;
import dev.sluice.store.Charge;
import dev.sluice.store.Charged;
import dev.sluice.store.CounterKey;
import dev.sluice.store.CounterState;
import dev.sluice.store.CounterStore;
import dev.sluice.store.ForwardingStore;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import dev.sluice.testing.LaterStore;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One decision at a time, on the real memory store and a {@link FakeClock}: what is counted, in how
 * many store calls, and how replaces, shadow mode, quota mode, hits_addend and overrides change the
 * answer.
 */
class RateLimiterTest {
  private static final RuleSet RULES =
      InlineRules.load(
          """
          domain: api
          descriptors:
            - key: user
              rate_limit: {unit: minute, requests_per_unit: 5, name: per-user}
            - key: plan
              value: free
              rate_limit: {unit: hour, requests_per_unit: 10}
            - key: internal
              rate_limit: {unlimited: true}
            - key: health
            - key: shadow
              shadow_mode: true
              rate_limit: {unit: minute, requests_per_unit: 1}
            - key: regular
              value: over
              rate_limit: {unit: minute, requests_per_unit: 0}
            - key: regular
              value: ok
              rate_limit: {unit: minute, requests_per_unit: 10}
            - key: quota
              value: over
              quota_mode: true
              rate_limit: {unit: minute, requests_per_unit: 0}
            - key: quota
              value: ok
              quota_mode: true
              rate_limit: {unit: minute, requests_per_unit: 10}
            - key: banned
              rate_limit: {unit: minute, requests_per_unit: 0, name: banned}
            - key: legacy_a
              rate_limit: {unit: minute, requests_per_unit: 0, name: legacy}
            - key: legacy_b
              rate_limit: {unit: minute, requests_per_unit: 0, name: legacy}
            - key: vip
              rate_limit:
                unit: minute
                requests_per_unit: 2
                name: vip
                replaces: [{name: banned}, {name: legacy}]
            - key: trusted
              rate_limit: {unlimited: true, replaces: [{name: banned}]}
            - key: counted
              rate_limit: {unit: minute, requests_per_unit: 3, name: counted}
            - key: replacer
              rate_limit: {unit: minute, requests_per_unit: 10, replaces: [{name: counted}]}
          """);

  private static final Limit PER_USER = Limit.of(5, Unit.MINUTE, Algorithm.FIXED_WINDOW);

  /** 12 seconds into a minute, so a minute window has 48 s left. */
  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L - 8);

  private final InMemoryCounterStore memory = new InMemoryCounterStore(clock, clock);
  private final CountingStore store = new CountingStore(memory);
  private final RateLimiter limiter = limiterOf(() -> RULES, store, Algorithm.FIXED_WINDOW);

  // --- store calls ---------------------------------------------------------------------------

  @Test
  void decide_severalCountedDescriptors_chargesEveryHitInOneStoreCall() {
    Decision decision =
        decide(
            call(
                "api",
                descriptor("user=alice"),
                descriptor("nomatch=x"),
                descriptor("plan=free"),
                descriptor("internal=x")));

    assertThat(store.calls).hasSize(1);
    assertThat(store.calls.get(0))
        .extracting(Hit::key)
        .containsExactly(
            CounterKey.of("api", entries("user=alice"), PER_USER),
            CounterKey.of(
                "api", entries("plan=free"), Limit.of(10, Unit.HOUR, Algorithm.FIXED_WINDOW)));
    assertThat(decision.statuses())
        .extracting(DescriptorDecision::remaining)
        .containsExactly(4L, 0L, 9L, Limit.MAX_UINT32);
  }

  @Test
  void decide_oneCountedAmongUncounted_isAnsweredWithItsOwnUsage() {
    decide(call("api", descriptor("user=alice")));
    decide(call("api", descriptor("user=bob")));

    // The only counted descriptor of a request owns every usage the store answered, whatever its
    // position; the one-descriptor request takes its own path through planning and answering.
    Decision among =
        decide(
            call(
                "api",
                descriptor("nomatch=x"),
                descriptor("user=alice"),
                descriptor("internal=x")));
    Decision alone = decide(call("api", descriptor("user=bob")));

    assertThat(among.statuses())
        .extracting(DescriptorDecision::remaining)
        .containsExactly(0L, 3L, Limit.MAX_UINT32);
    assertThat(among.statuses().get(1).currentLimit())
        .contains(new CurrentLimit(PER_USER, "per-user"));
    assertThat(alone.statuses()).extracting(DescriptorDecision::remaining).containsExactly(3L);
  }

  @Test
  void decide_nothingCounted_makesNoStoreCall() {
    List<Decision> decisions =
        List.of(
            decide(call("unknown-domain", descriptor("user=alice"))),
            decide(call("api", descriptor("nomatch=x"))),
            decide(call("api", descriptor("internal=x"))),
            decide(call("api", descriptor("health=x"))),
            decide(call("api", descriptor("banned=x"), descriptor("trusted=y"))));

    assertThat(store.calls).isEmpty();
    assertThat(decisions).extracting(Decision::overall).containsOnly(Code.OK);
    assertThat(decisions.get(0).statuses()).containsExactly(DescriptorDecision.NOT_LIMITED);
    assertThat(decisions.get(1).statuses()).containsExactly(DescriptorDecision.NOT_LIMITED);
    assertThat(decisions.get(2).statuses()).containsExactly(DescriptorDecision.UNLIMITED);
    assertThat(decisions.get(3).statuses()).containsExactly(DescriptorDecision.NOT_LIMITED);
    assertThat(decisions.get(4).statuses())
        .containsExactly(DescriptorDecision.NOT_LIMITED, DescriptorDecision.UNLIMITED);
  }

  @Test
  void decide_counted_reportsTheRuleRemainingAndTimeToTheWindowEnd() {
    DescriptorDecision status = decide(call("api", descriptor("user=alice"))).statuses().get(0);

    assertThat(status)
        .isEqualTo(
            new DescriptorDecision(
                Code.OK,
                Optional.of(new CurrentLimit(PER_USER, "per-user")),
                4,
                Optional.of(Duration.ofSeconds(48))));
  }

  // --- replaces ------------------------------------------------------------------------------

  @Test
  void replaces_namesAreGlobalWithinTheRequest_inEitherOrder() {
    Decision bannedFirst = decide(call("api", descriptor("banned=x"), descriptor("vip=y")));
    Decision bannedLast = decide(call("api", descriptor("vip=z"), descriptor("banned=x")));

    assertThat(bannedFirst.overall()).isEqualTo(Code.OK);
    assertThat(bannedFirst.statuses().get(0)).isEqualTo(DescriptorDecision.NOT_LIMITED);
    assertThat(bannedLast.overall()).isEqualTo(Code.OK);
    assertThat(bannedLast.statuses().get(1)).isEqualTo(DescriptorDecision.NOT_LIMITED);
    assertThat(store.calls).allSatisfy(hits -> assertThat(hits).hasSize(1));
  }

  @Test
  void replaces_twoRulesWithTheReplacedName_areBothDropped() {
    Decision decision =
        decide(
            call("api", descriptor("legacy_a=x"), descriptor("legacy_b=x"), descriptor("vip=y")));

    assertThat(decision.overall()).isEqualTo(Code.OK);
    assertThat(decision.statuses().subList(0, 2)).containsOnly(DescriptorDecision.NOT_LIMITED);
    assertThat(store.calls).singleElement().satisfies(hits -> assertThat(hits).hasSize(1));
  }

  @Test
  void replaces_byAnUnlimitedRule_dropsTheReplacedRule() {
    Decision decision = decide(call("api", descriptor("banned=x"), descriptor("trusted=y")));

    assertThat(decision.overall()).isEqualTo(Code.OK);
    assertThat(decision.statuses())
        .containsExactly(DescriptorDecision.NOT_LIMITED, DescriptorDecision.UNLIMITED);
  }

  @Test
  void replaces_withoutTheReplacingRule_theReplacedRuleDecides() {
    assertThat(decide(call("api", descriptor("banned=x"))).overall()).isEqualTo(Code.OVER_LIMIT);
  }

  @Test
  void replaces_replacedRulesCounter_isNotCharged() {
    RateLimitCall alone = call("api", descriptor("counted=x"));
    RateLimitCall replaced = call("api", descriptor("counted=x"), descriptor("replacer=y"));

    assertThat(remaining(decide(alone), 0)).isEqualTo(2);
    decide(replaced);
    decide(replaced);

    assertThat(remaining(decide(alone), 0)).isEqualTo(1);
  }

  // --- shadow mode ---------------------------------------------------------------------------

  @Test
  void shadowMode_overTheLimit_answersOkWithZeroRemainingButStillCounts() {
    RateLimitCall call = call("api", descriptor("shadow=x"));
    decide(call);

    Decision over = decide(call);

    assertThat(over.overall()).isEqualTo(Code.OK);
    DescriptorDecision status = over.statuses().get(0);
    assertThat(status.code()).isEqualTo(Code.OK);
    assertThat(status.remaining()).isZero();
    assertThat(status.currentLimit()).isPresent();
    assertThat(status.untilReset()).contains(Duration.ofSeconds(48));
    Limit shadowLimit = Limit.of(1, Unit.MINUTE, Algorithm.FIXED_WINDOW);
    assertThat(countOf(CounterKey.of("api", entries("shadow=x"), shadowLimit), shadowLimit))
        .isEqualTo(2);
  }

  @Test
  void shadowMode_doesNotHideAnotherDescriptorOverTheLimit() {
    decide(call("api", descriptor("shadow=x")));

    Decision decision = decide(call("api", descriptor("shadow=x"), descriptor("regular=over")));

    assertThat(decision.overall()).isEqualTo(Code.OVER_LIMIT);
    assertThat(decision.statuses())
        .extracting(DescriptorDecision::code)
        .containsExactly(Code.OK, Code.OVER_LIMIT);
  }

  // --- quota mode ----------------------------------------------------------------------------

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          regular=over quota=ok   | OVER_LIMIT
          regular=ok quota=over   | OVER_LIMIT
          quota=over quota=ok     | OK
          quota=over quota=over   | OVER_LIMIT
          regular=ok quota=ok     | OK
          regular=ok quota=over quota=ok | OK
          regular=over            | OVER_LIMIT
          """)
  void quotaMode_overallIsOverOnlyWhenARegularOrEveryQuotaDescriptorIsOver(
      String request, Code overall) {
    List<DescriptorRequest> descriptors = new ArrayList<>();
    for (String entry : request.split(" ")) {
      descriptors.add(descriptor(entry));
    }

    Decision decision = decide(new RateLimitCall("api", descriptors, 0));

    assertThat(decision.overall()).isEqualTo(overall);
    for (int i = 0; i < descriptors.size(); i++) {
      boolean over = descriptors.get(i).entries().get(0).value().equals("over");
      assertThat(decision.statuses().get(i).code())
          .as("status of descriptor %d", i)
          .isEqualTo(over ? Code.OVER_LIMIT : Code.OK);
    }
  }

  @ParameterizedTest(name = "global quota mode: {0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          regular=over                 | OVER_LIMIT
          regular=over regular=ok      | OK
          regular=over shadow=x        | OK
          regular=over health=x        | OK
          regular=over nomatch=x       | OK
          regular=over internal=x      | OVER_LIMIT
          quota=over regular=over      | OVER_LIMIT
          """)
  void globalQuotaMode_everyDescriptorButUnlimitedIsAQuotaDescriptor(String request, Code overall) {
    List<DescriptorRequest> descriptors = new ArrayList<>();
    for (String entry : request.split(" ")) {
      descriptors.add(descriptor(entry));
    }
    RateLimiter quota =
        new RateLimiter(
            () -> RULES,
            RateLimiter.StoreChoice.of(store),
            LimiterConfig.from(
                SettingValues.builder().set(LimiterSettings.QUOTA_MODE, true).build()),
            new SluiceMetrics(new PrometheusRegistry()));

    Decision decision = quota.decide(new RateLimitCall("api", descriptors, 0)).join();

    assertThat(decision.overall()).isEqualTo(overall);
    assertThat(decision.statuses().get(0).code()).isEqualTo(Code.OVER_LIMIT);
  }

  // --- hits_addend ---------------------------------------------------------------------------

  @ParameterizedTest(name = "request {0}, descriptor {1} -> remaining {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0 |   | 4
          1 |   | 4
          3 |   | 2
          3 | 2 | 3
          0 | 2 | 3
          4 | 0 | 5
          0 | 0 | 5
          """)
  void hitsAddend_descriptorsOwnWinsElseRequestsWhereZeroMeansOne(
      long requestAddend, Long descriptorAddend, long remaining) {
    DescriptorRequest descriptor = descriptor("user=alice");
    if (descriptorAddend != null) {
      descriptor = descriptor.withHitsAddend(descriptorAddend);
    }

    Decision decision = decide(new RateLimitCall("api", List.of(descriptor), requestAddend));

    assertThat(remaining(decision, 0)).isEqualTo(remaining);
  }

  @Test
  void hitsAddend_zero_checksWithoutConsuming() {
    RateLimitCall checkOnly = call("api", descriptor("user=alice").withHitsAddend(0));
    decide(call("api", descriptor("user=alice")));

    for (int i = 0; i < 3; i++) {
      assertThat(remaining(decide(checkOnly), 0)).isEqualTo(4);
    }
    assertThat(remaining(decide(call("api", descriptor("user=alice"))), 0)).isEqualTo(3);
  }

  // --- overrides -----------------------------------------------------------------------------

  @Test
  void override_knownDomain_replacesTheRuleLimitWithoutItsName() {
    RateLimitCall call =
        call("api", descriptor("user=alice").withOverride(new LimitOverride(2, Unit.SECOND)));

    DescriptorDecision status = decide(call).statuses().get(0);

    assertThat(status.currentLimit())
        .contains(new CurrentLimit(Limit.of(2, Unit.SECOND, Algorithm.FIXED_WINDOW), ""));
    assertThat(status.remaining()).isEqualTo(1);
    decide(call);
    assertThat(decide(call).overall()).isEqualTo(Code.OVER_LIMIT);
  }

  @Test
  void override_knownDomainWithoutAMatchingRule_isStillCounted() {
    RateLimitCall call =
        call("api", descriptor("nomatch=x").withOverride(new LimitOverride(1, Unit.MINUTE)));

    assertThat(decide(call).statuses().get(0).remaining()).isZero();
    assertThat(decide(call).overall()).isEqualTo(Code.OVER_LIMIT);
  }

  @Test
  void override_onShadowOrUnlimitedRule_isNeitherShadowedNorUnlimited() {
    LimitOverride zero = new LimitOverride(0, Unit.MINUTE);

    Decision decision =
        decide(
            call(
                "api",
                descriptor("shadow=x").withOverride(zero),
                descriptor("internal=x").withOverride(zero)));

    assertThat(decision.statuses())
        .extracting(DescriptorDecision::code)
        .containsExactly(Code.OVER_LIMIT, Code.OVER_LIMIT);
  }

  @Test
  void override_unknownDomain_isIgnoredAndNothingIsCounted() {
    RateLimitCall call =
        call("other", descriptor("user=alice").withOverride(new LimitOverride(1, Unit.SECOND)));

    assertThat(decide(call).statuses()).containsExactly(DescriptorDecision.NOT_LIMITED);
    assertThat(store.calls).isEmpty();
  }

  @Test
  void override_andRuleOnTheSameEntriesUnitAndAlgorithm_shareOneCounter() {
    RateLimitCall byRule = call("api", descriptor("user=alice"));
    RateLimitCall byOverride =
        call("api", descriptor("user=alice").withOverride(new LimitOverride(3, Unit.MINUTE)));
    decide(byRule);
    decide(byRule);

    assertThat(remaining(decide(byOverride), 0)).isZero();
    assertThat(remaining(decide(byRule), 0)).isEqualTo(1);
  }

  @Test
  void override_withAnotherUnit_countsOnItsOwnCounter() {
    decide(call("api", descriptor("user=alice")));
    RateLimitCall perHour =
        call("api", descriptor("user=alice").withOverride(new LimitOverride(3, Unit.HOUR)));

    assertThat(remaining(decide(perHour), 0)).isEqualTo(2);
  }

  @Test
  void override_isCountedWithTheConfiguredOverrideAlgorithm() {
    RateLimiter tokenBuckets = limiterOf(() -> RULES, store, Algorithm.TOKEN_BUCKET);
    RateLimitCall call =
        call("api", descriptor("user=alice").withOverride(new LimitOverride(2, Unit.SECOND)));

    DescriptorDecision status = tokenBuckets.decide(call).join().statuses().get(0);

    assertThat(status.currentLimit().orElseThrow().limit().algorithm())
        .isEqualTo(Algorithm.TOKEN_BUCKET);
    assertThat(store.calls.get(0).get(0).key()).startsWith("tb|1|api|");
  }

  @Test
  void override_bypassesTheMatchedRule_soItsReplacesDoNotApply() {
    Decision decision =
        decide(
            call(
                "api",
                descriptor("banned=x"),
                descriptor("vip=y").withOverride(new LimitOverride(5, Unit.MINUTE))));

    assertThat(decision.statuses().get(0).code()).isEqualTo(Code.OVER_LIMIT);
    assertThat(decision.overall()).isEqualTo(Code.OVER_LIMIT);
  }

  // --- local over-limit cache ----------------------------------------------------------------

  private RateLimiter cachingLimiter(SluiceMetrics metrics) {
    return new RateLimiter(
        () -> RULES,
        new RateLimiter.StoreChoice(
            store, Optional.empty(), OverLimitCache.of(100, clock, metrics), Runnable::run),
        LimiterConfig.from(
            SettingValues.builder().set(LimiterSettings.LOCAL_CACHE_SIZE, 100L).build()),
        metrics);
  }

  @Test
  void overLimitCache_knownOverKey_isAnsweredWithoutTheStoreUntilTheWindowEnds() {
    RateLimiter caching = cachingLimiter(new SluiceMetrics(new PrometheusRegistry()));
    RateLimitCall alice = call("api", descriptor("user=alice"));
    for (int i = 0; i < 6; i++) {
      caching.decide(alice).join();
    }
    int storeCalls = store.calls.size();
    Decision cached = caching.decide(alice).join();
    assertThat(store.calls).as("answered from the cache").hasSize(storeCalls);
    assertThat(cached.overall()).isEqualTo(Code.OVER_LIMIT);
    assertThat(cached.statuses().get(0).untilReset()).contains(Duration.ofSeconds(48));
    assertThat(cached.statuses().get(0).currentLimit()).isPresent();

    clock.advance(Duration.ofSeconds(48));
    Decision nextWindow = caching.decide(alice).join();
    assertThat(store.calls).hasSize(storeCalls + 1);
    assertThat(nextWindow.overall()).isEqualTo(Code.OK);
  }

  @Test
  void overLimitCache_otherDescriptorsOfTheRequest_stillGoToTheStore() {
    RateLimiter caching = cachingLimiter(new SluiceMetrics(new PrometheusRegistry()));
    for (int i = 0; i < 6; i++) {
      caching.decide(call("api", descriptor("user=bob"))).join();
    }
    Decision both =
        caching.decide(call("api", descriptor("user=bob"), descriptor("plan=free"))).join();
    assertThat(store.calls.get(store.calls.size() - 1))
        .singleElement()
        .extracting(Hit::key)
        .asString()
        .contains("plan=free");
    assertThat(both.statuses())
        .extracting(DescriptorDecision::code)
        .containsExactly(Code.OVER_LIMIT, Code.OK);
  }

  @Test
  void overLimitCache_raisedOverride_isNotAnsweredFromTheCache() {
    RateLimiter caching = cachingLimiter(new SluiceMetrics(new PrometheusRegistry()));
    RateLimitCall one =
        call("api", descriptor("user=carol").withOverride(new LimitOverride(1, Unit.MINUTE)));
    caching.decide(one).join();
    assertThat(caching.decide(one).join().overall()).isEqualTo(Code.OVER_LIMIT);
    RateLimitCall ten =
        call("api", descriptor("user=carol").withOverride(new LimitOverride(10, Unit.MINUTE)));
    assertThat(caching.decide(ten).join().overall()).isEqualTo(Code.OK);
  }

  @Test
  void overLimitCache_shadowRule_answersOkAndCountsTheCachedHits() throws Exception {
    SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
    RateLimiter caching = cachingLimiter(metrics);
    RateLimitCall shadow = call("api", descriptor("shadow=x"));
    for (int i = 0; i < 3; i++) {
      assertThat(caching.decide(shadow).join().overall()).isEqualTo(Code.OK);
    }
    java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
    metrics.writeText(text);
    assertThat(text.toString())
        .contains("sluice_rule_over_limit_local_cache_total{domain=\"api\",rule=\"shadow\"} 1.0")
        .contains("sluice_local_cache_total{result=\"hit\"} 1.0");
  }

  // --- snapshot and failures -----------------------------------------------------------------

  @Test
  void decide_readsTheRuleSnapshotOncePerRequest() {
    AtomicInteger reads = new AtomicInteger();
    Supplier<RuleSet> rules =
        () -> {
          reads.incrementAndGet();
          return RULES;
        };
    RateLimiter counting = limiterOf(rules, store, Algorithm.FIXED_WINDOW);

    counting
        .decide(
            call(
                "api",
                descriptor("user=alice"),
                descriptor("plan=free"),
                descriptor("banned=x"),
                descriptor("vip=y").withOverride(new LimitOverride(1, Unit.SECOND))))
        .join();
    assertThat(reads).hasValue(1);

    counting.decide(call("unknown", descriptor("user=alice"))).join();
    assertThat(reads).hasValue(2);
  }

  @Test
  void decide_storeFails_futureFailsWithTheStoreException() {
    StoreException down = new StoreException("redis at 127.0.0.1:1: acquire failed");
    RateLimiter failing = limiterOf(() -> RULES, new FailingStore(down), Algorithm.FIXED_WINDOW);

    CompletableFuture<Decision> decision = failing.decide(call("api", descriptor("user=alice")));

    assertThatThrownBy(decision::join)
        .isInstanceOf(CompletionException.class)
        .cause()
        .isSameAs(down);
  }

  @Test
  void decide_storeFailsButNothingIsCounted_answersWithoutTheStore() {
    RateLimiter failing =
        limiterOf(
            () -> RULES, new FailingStore(new StoreException("down")), Algorithm.FIXED_WINDOW);

    Decision decision = failing.decide(call("api", descriptor("internal=x"))).join();

    assertThat(decision.statuses()).containsExactly(DescriptorDecision.UNLIMITED);
  }

  @Test
  void answer_memoryStore_isTheDecisionItselfFromOneStoreCall() {
    Answer answer = limiter.answer(call("api", descriptor("user=alice")));

    assertThat(answer).isInstanceOf(Decision.class);
    assertThat(((Decision) answer).statuses())
        .extracting(DescriptorDecision::remaining)
        .containsExactly(4L);
    assertThat(store.calls).hasSize(1);
  }

  @Test
  void answer_storeAnswersLater_isLaterAndCompletesWithTheDecision() {
    LaterStore later = new LaterStore(memory);
    RateLimiter waiting = limiterOf(() -> RULES, later, Algorithm.FIXED_WINDOW);

    Answer answer = waiting.answer(call("api", descriptor("user=alice")));

    assertThat(answer).isInstanceOf(Answer.Later.class);
    assertThat(answer.future()).isNotDone();
    later.answerAll();
    assertThat(answer.future().join().statuses())
        .extracting(DescriptorDecision::remaining)
        .containsExactly(4L);
  }

  // --- helpers -------------------------------------------------------------------------------

  private static RateLimiter limiterOf(
      Supplier<RuleSet> rules, CounterStore store, Algorithm overrideAlgorithm) {
    return new RateLimiter(
        rules,
        RateLimiter.StoreChoice.of(store),
        LimiterConfig.from(
            SettingValues.builder()
                .set(RulesSettings.DEFAULT_ALGORITHM, overrideAlgorithm)
                .build()),
        new SluiceMetrics(new PrometheusRegistry()));
  }

  private Decision decide(RateLimitCall call) {
    return limiter.decide(call).join();
  }

  private long countOf(String key, Limit limit) {
    Usage usage = memory.acquire(List.of(new Hit(key, limit, 0))).join().get(0);
    return usage.countAfter();
  }

  private static long remaining(Decision decision, int index) {
    return decision.statuses().get(index).remaining();
  }

  private static RateLimitCall call(String domain, DescriptorRequest... descriptors) {
    return RateLimitCall.of(domain, descriptors);
  }

  /** {@code "k1=v1 k2=v2"} as one descriptor. */
  private static DescriptorRequest descriptor(String entries) {
    return DescriptorRequest.of(entries(entries).toArray(Entry[]::new));
  }

  private static List<Entry> entries(String text) {
    List<Entry> entries = new ArrayList<>();
    for (String pair : text.trim().split("\\s+")) {
      int eq = pair.indexOf('=');
      entries.add(new Entry(pair.substring(0, eq), pair.substring(eq + 1)));
    }
    return entries;
  }

  /** The real store, recording every call: counting calls, not mocking behaviour. */
  private static final class CountingStore extends ForwardingStore {
    final List<List<Hit>> calls = new CopyOnWriteArrayList<>();

    CountingStore(CounterStore delegate) {
      super(delegate);
    }

    @Override
    public Charged charge(Charge charge) {
      calls.add(charge.hits());
      return delegate().charge(charge);
    }
  }

  /** A store whose backend is down: every call fails the way the Redis store's does. */
  private record FailingStore(StoreException failure) implements CounterStore {
    @Override
    public Charged charge(Charge charge) {
      return Charged.failed(failure);
    }

    @Override
    public CompletableFuture<CounterState> inspect(Hit hit) {
      return CompletableFuture.failedFuture(failure);
    }

    @Override
    public CompletableFuture<CounterState> reset(Hit hit) {
      return CompletableFuture.failedFuture(failure);
    }

    @Override
    public void ping() {
      throw failure;
    }

    @Override
    public String kind() {
      return "failing";
    }

    @Override
    public void close() {}
  }
}
