package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.testing.Hammer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What every {@link CounterStore} must do, whatever holds the counters. Extended once per store;
 * time-dependent arithmetic is tested on the memory store with a fake clock, because the Redis
 * token bucket reads Redis's own clock. Limits here are per day or hour so real time passing during
 * a test cannot change an answer.
 */
public abstract class CounterStoreContract {
  protected static final int THREADS = 32;

  /** The store under test; the same instance for the whole test method. */
  protected abstract CounterStore store();

  /**
   * A second, independent store on the same backend (for Redis: its own pool), as if a second
   * Sluice instance. A store that cannot share its backend returns {@link #store()}.
   */
  protected abstract CounterStore secondInstance();

  private final String unique = UUID.randomUUID().toString();

  /** A key no other test uses, so tests never need to flush a shared backend. */
  protected String key(String name) {
    return name + "-" + unique;
  }

  protected static Limit fixed(long perUnit, Unit unit) {
    return Limit.of(perUnit, unit, Algorithm.FIXED_WINDOW);
  }

  protected static Limit bucket(long perUnit, Unit unit, long burst) {
    return new Limit(perUnit, unit, Algorithm.TOKEN_BUCKET, burst);
  }

  protected static Limit sliding(long perUnit, Unit unit) {
    return Limit.of(perUnit, unit, Algorithm.SLIDING_WINDOW);
  }

  protected Usage acquireOne(CounterStore store, Hit hit) {
    return store.acquire(List.of(hit)).join().get(0);
  }

  @Test
  void fixedWindow_limitFive_fifthIsOkWithZeroRemainingAndSixthIsOver() {
    Hit hit = new Hit(key("five"), fixed(5, Unit.HOUR), 1);
    for (int i = 1; i <= 5; i++) {
      Usage usage = acquireOne(store(), hit);
      assertThat(usage.overLimit()).as("hit %d", i).isFalse();
      assertThat(usage.remaining()).isEqualTo(5 - i);
      assertThat(usage.countAfter()).isEqualTo(i);
    }
    Usage sixth = acquireOne(store(), hit);
    assertThat(sixth.overLimit()).isTrue();
    assertThat(sixth.remaining()).isZero();
    assertThat(sixth.untilReset()).isPositive().isLessThanOrEqualTo(Unit.HOUR.window());
  }

  @Test
  void fixedWindow_hitsAddend_countsEveryHit() {
    Hit three = new Hit(key("addend"), fixed(10, Unit.HOUR), 3);
    assertThat(acquireOne(store(), three).remaining()).isEqualTo(7);
    assertThat(acquireOne(store(), three).remaining()).isEqualTo(4);
    assertThat(acquireOne(store(), three).remaining()).isEqualTo(1);
    Usage fourth = acquireOne(store(), three);
    assertThat(fourth.overLimit()).isTrue();
    assertThat(fourth.countAfter()).isEqualTo(12);
  }

  @Test
  void fixedWindow_zeroHits_checksWithoutConsuming() {
    String key = key("check");
    acquireOne(store(), new Hit(key, fixed(2, Unit.HOUR), 2));
    Usage check = acquireOne(store(), new Hit(key, fixed(2, Unit.HOUR), 0));
    assertThat(check.overLimit()).isFalse();
    assertThat(check.remaining()).isZero();
    assertThat(check.countAfter()).isEqualTo(2);
  }

  @Test
  void fixedWindow_zeroLimit_everyHitIsOver() {
    Usage usage = acquireOne(store(), new Hit(key("block"), fixed(0, Unit.MINUTE), 1));
    assertThat(usage.overLimit()).isTrue();
  }

  @Test
  void acquire_manyHits_answersInOrderAndCountsRepeatedKeysInSequence() {
    Hit a = new Hit(key("a"), fixed(1, Unit.HOUR), 1);
    Hit b = new Hit(key("b"), fixed(5, Unit.HOUR), 1);
    Hit tb = new Hit(key("tb"), bucket(100, Unit.DAY, 2), 1);
    List<Usage> usages = store().acquire(List.of(a, b, a, tb, tb, tb)).join();
    assertThat(usages)
        .extracting(Usage::overLimit)
        .containsExactly(false, false, true, false, false, true);
    assertThat(usages).extracting(Usage::remaining).containsExactly(0L, 4L, 0L, 1L, 0L, 0L);
  }

  @Test
  void acquire_noHits_answersEmpty() {
    assertThat(store().acquire(List.of()).join()).isEmpty();
  }

  @Test
  void fixedWindow_keysAreIndependent() {
    Limit one = fixed(1, Unit.HOUR);
    assertThat(acquireOne(store(), new Hit(key("x"), one, 1)).overLimit()).isFalse();
    assertThat(acquireOne(store(), new Hit(key("y"), one, 1)).overLimit()).isFalse();
    assertThat(acquireOne(store(), new Hit(key("x"), one, 1)).overLimit()).isTrue();
  }

  @Test
  void tokenBucket_burst_allowsBurstThenRefusesWithoutTakingTokens() {
    Limit limit = bucket(24, Unit.DAY, 3);
    String key = key("burst");
    for (int i = 1; i <= 3; i++) {
      Usage usage = acquireOne(store(), new Hit(key, limit, 1));
      assertThat(usage.overLimit()).as("hit %d", i).isFalse();
      assertThat(usage.remaining()).isEqualTo(3 - i);
    }
    Usage refused = acquireOne(store(), new Hit(key, limit, 1));
    assertThat(refused.overLimit()).isTrue();
    assertThat(refused.remaining()).isZero();
    // One token drips in every hour (24 per day): the refusal says so.
    assertThat(refused.untilReset()).isPositive().isLessThanOrEqualTo(Unit.HOUR.window());
  }

  @Test
  void tokenBucket_requestLargerThanTokensLeft_isRefusedAndTakesNothing() {
    Limit limit = bucket(10, Unit.DAY, 10);
    String key = key("partial");
    assertThat(acquireOne(store(), new Hit(key, limit, 7)).remaining()).isEqualTo(3);
    Usage refused = acquireOne(store(), new Hit(key, limit, 5));
    assertThat(refused.overLimit()).isTrue();
    assertThat(refused.remaining()).isEqualTo(3);
    Usage fits = acquireOne(store(), new Hit(key, limit, 3));
    assertThat(fits.overLimit()).isFalse();
    assertThat(fits.remaining()).isZero();
  }

  @Test
  void tokenBucket_moreHitsThanTheBurst_refusedWithAWholeRefillAsReset() {
    // One token an hour, burst 3: a whole bucket refills in 3 hours.
    Limit limit = bucket(24, Unit.DAY, 3);
    String key = key("above-burst");
    Usage full = acquireOne(store(), new Hit(key, limit, 4));
    assertThat(full.overLimit()).isTrue();
    assertThat(full.remaining()).isEqualTo(3);
    // Was 0 (issue 11.10): a client told to retry at once, for a request that can never pass.
    assertThat(full.untilReset())
        .isBetween(Duration.ofHours(3).minusSeconds(1), Duration.ofHours(3).plusSeconds(1));
    acquireOne(store(), new Hit(key, limit, 1));
    Usage partial = acquireOne(store(), new Hit(key, limit, 4));
    assertThat(partial.overLimit()).isTrue();
    assertThat(partial.untilReset())
        .as("not the hour until full: no wait helps")
        .isBetween(Duration.ofHours(3).minusSeconds(1), Duration.ofHours(3).plusSeconds(1));
  }

  @Test
  void tokenBucket_zeroHits_checksWithoutConsuming() {
    Limit limit = bucket(10, Unit.DAY, 2);
    String key = key("tbcheck");
    acquireOne(store(), new Hit(key, limit, 1));
    Usage check = acquireOne(store(), new Hit(key, limit, 0));
    assertThat(check.overLimit()).isFalse();
    assertThat(check.remaining()).isEqualTo(1);
  }

  @Test
  void tokenBucket_defaultBurst_isOneWindowOfRequests() {
    Limit limit = Limit.of(4, Unit.DAY, Algorithm.TOKEN_BUCKET);
    List<Usage> usages = store().acquire(List.of(new Hit(key("tb4"), limit, 5))).join();
    assertThat(usages.get(0).overLimit()).isTrue();
    assertThat(acquireOne(store(), new Hit(key("tb4"), limit, 4)).overLimit()).isFalse();
  }

  @Test
  void inspect_fixedWindow_readsWithoutConsumingOrCreating() {
    Hit hit = new Hit(key("inspect-fw"), fixed(5, Unit.HOUR), 1);
    CounterState fresh = store().inspect(hit).join();
    assertThat(fresh.exists()).isFalse();
    assertThat(fresh.usage().remaining()).isEqualTo(5);
    assertThat(store().inspect(hit).join().exists()).as("inspect creates nothing").isFalse();
    for (int i = 0; i < 3; i++) {
      acquireOne(store(), hit);
    }
    for (int i = 0; i < 2; i++) {
      CounterState state = store().inspect(hit).join();
      assertThat(state.exists()).isTrue();
      assertThat(state.usage().countAfter()).isEqualTo(3);
      assertThat(state.usage().remaining()).isEqualTo(2);
      assertThat(state.usage().untilReset()).isPositive();
    }
  }

  @Test
  void reset_fixedWindow_clearsTheCurrentWindow() {
    Hit hit = new Hit(key("reset-fw"), fixed(2, Unit.HOUR), 1);
    acquireOne(store(), hit);
    acquireOne(store(), hit);
    assertThat(acquireOne(store(), hit).overLimit()).isTrue();
    CounterState removed = store().reset(hit).join();
    assertThat(removed.exists()).isTrue();
    assertThat(removed.usage().countAfter()).isEqualTo(3);
    assertThat(store().inspect(hit).join().exists()).isFalse();
    assertThat(acquireOne(store(), hit).remaining()).isEqualTo(1);
    assertThat(store().reset(new Hit(key("never"), fixed(2, Unit.HOUR), 1)).join().exists())
        .isFalse();
  }

  @Test
  void inspectAndReset_tokenBucket_readTokensAndRefillTheBucket() {
    Hit hit = new Hit(key("inspect-tb"), bucket(10, Unit.DAY, 5), 2);
    assertThat(store().inspect(hit).join().usage().remaining()).isEqualTo(5);
    acquireOne(store(), hit);
    CounterState state = store().inspect(hit).join();
    assertThat(state.exists()).isTrue();
    assertThat(state.usage().remaining()).isEqualTo(3);
    assertThat(state.usage().overLimit()).isFalse();
    assertThat(store().inspect(hit).join().usage().remaining()).as("not consumed").isEqualTo(3);
    assertThat(store().reset(hit).join().exists()).isTrue();
    assertThat(acquireOne(store(), hit).remaining()).isEqualTo(3);
  }

  @Test
  void fixedWindow_concurrentHitsFromTwoInstances_allowExactlyTheLimit() throws Exception {
    assertExactlyLimitAllowed(fixed(100, Unit.HOUR), key("race-fw"));
  }

  @Test
  void tokenBucket_concurrentHitsFromTwoInstances_allowExactlyTheBurst() throws Exception {
    assertExactlyLimitAllowed(bucket(100, Unit.DAY, 100), key("race-tb"));
  }

  @Test
  void slidingWindow_concurrentHitsFromTwoInstances_allowExactlyTheLimit() throws Exception {
    assertExactlyLimitAllowed(sliding(100, Unit.DAY), key("race-sw"));
  }

  // --- the usual request's charge, answered now or later (CounterStore#charge) ----------------

  /** Whether this store charges on the calling thread ({@link Charged.Now}) or answers later. */
  protected abstract boolean answersNow();

  /** The charge of the usual request, one descriptor with one limit, as the limiter builds it. */
  private static Charge usual(Hit hit) {
    return Charge.Group.each(hit);
  }

  /** As the limiter takes a store's answer: its usages at once when now, else its future's. */
  private static Usage answered(Charged answer) {
    return (answer instanceof Charged.Now now ? now.usages() : answer.future().join()).get(0);
  }

  @Test
  void charge_usualRequest_answersInTheStoresShapeAndCountsEveryAlgorithm() {
    for (Limit limit : List.of(fixed(5, Unit.HOUR), bucket(5, Unit.DAY, 5), sliding(5, Unit.DAY))) {
      Hit hit = new Hit(key("usual-" + limit.algorithm().configName()), limit, 1);
      for (int i = 1; i <= 6; i++) {
        Charged answer = store().charge(usual(hit));
        assertThat(answer instanceof Charged.Now).as("answered now").isEqualTo(answersNow());
        Usage usage = answered(answer);
        assertThat(usage.overLimit()).as("%s hit %d over", limit, i).isEqualTo(i > 5);
        assertThat(usage.remaining())
            .as("%s hit %d remaining", limit, i)
            .isEqualTo(Math.max(0, 5 - i));
      }
      assertThat(held(hit)).as("%s holds the allowed hits", limit).isEqualTo(5);
    }
  }

  @Test
  void charge_usualRequestConcurrentFromTwoInstances_allowExactlyTheLimit() throws Exception {
    CounterStore[] instances = {store(), secondInstance()};
    for (Limit limit : List.of(fixed(100, Unit.HOUR), bucket(100, Unit.DAY, 100))) {
      Hit hit = new Hit(key("race-usual-" + limit.algorithm().configName()), limit, 1);
      int allowed =
          Hammer.countAllowed(
              THREADS, 20, t -> () -> !answered(instances[t % 2].charge(usual(hit))).overLimit());
      assertThat(allowed).as("%s", limit).isEqualTo(100);
      assertThat(held(hit)).as("%s holds the allowed hits", limit).isEqualTo(100);
    }
  }

  @Test
  void slidingWindow_limitFive_fifthIsOkWithZeroRemainingAndSixthIsOverAndUncounted() {
    Hit hit = new Hit(key("sw-five"), sliding(5, Unit.DAY), 1);
    for (int i = 1; i <= 5; i++) {
      Usage usage = acquireOne(store(), hit);
      assertThat(usage.overLimit()).as("hit %d", i).isFalse();
      assertThat(usage.remaining()).isEqualTo(5 - i);
      assertThat(usage.countAfter()).isEqualTo(i);
      assertThat(usage.untilReset()).isPositive().isLessThanOrEqualTo(Unit.DAY.window());
    }
    Usage sixth = acquireOne(store(), hit);
    assertThat(sixth.overLimit()).isTrue();
    assertThat(sixth.remaining()).isZero();
    assertThat(sixth.countAfter()).as("limit plus the refused hit").isEqualTo(6);
    assertThat(sixth.untilReset()).isPositive().isLessThanOrEqualTo(Unit.DAY.window());
    Usage check = acquireOne(store(), new Hit(hit.key(), hit.limit(), 0));
    assertThat(check.overLimit()).as("a refused hit is not counted").isFalse();
    assertThat(check.countAfter()).isEqualTo(5);
  }

  @Test
  void slidingWindow_requestLargerThanRoomLeft_isRefusedAndCountsNothing() {
    Limit limit = sliding(10, Unit.DAY);
    String key = key("sw-partial");
    assertThat(acquireOne(store(), new Hit(key, limit, 7)).remaining()).isEqualTo(3);
    Usage refused = acquireOne(store(), new Hit(key, limit, 5));
    assertThat(refused.overLimit()).isTrue();
    assertThat(refused.remaining()).isEqualTo(3);
    Usage fits = acquireOne(store(), new Hit(key, limit, 3));
    assertThat(fits.overLimit()).isFalse();
    assertThat(fits.remaining()).isZero();
  }

  @Test
  void inspectAndReset_slidingWindow_readWithoutCountingAndClearBothWindows() {
    Hit hit = new Hit(key("inspect-sw"), sliding(5, Unit.DAY), 2);
    assertThat(store().inspect(hit).join().exists()).isFalse();
    acquireOne(store(), hit);
    for (int i = 0; i < 2; i++) {
      CounterState state = store().inspect(hit).join();
      assertThat(state.exists()).isTrue();
      assertThat(state.usage().remaining()).as("not counted").isEqualTo(3);
    }
    assertThat(store().reset(hit).join().exists()).isTrue();
    assertThat(store().inspect(hit).join().exists()).isFalse();
    assertThat(acquireOne(store(), hit).remaining()).isEqualTo(3);
  }

  // --- several limits on one descriptor, charge_denied: false (Charge) ------------------------

  /** One descriptor with several limits, as the planner keys them: every key extends the tag. */
  protected Charge.Group several(String name, Charge.Policy policy, long hits, Limit... limits) {
    String tag = CounterKey.group("api", List.of(new Entry("k", key(name))));
    List<Hit> hits1 = new ArrayList<>();
    for (Limit limit : limits) {
      hits1.add(new Hit(CounterKey.ofSeveral(tag, limit), limit, hits));
    }
    return Charge.Group.of(tag, hits1, policy, Charge.Vote.REGULAR);
  }

  protected static Charge.Group single(Hit hit, Charge.Policy policy, Charge.Vote vote) {
    return Charge.Group.of(hit.key(), List.of(hit), policy, vote);
  }

  private List<Usage> charge(CounterStore on, Charge.Group... groups) {
    return on.charge(Charge.of(List.of(groups))).future().join();
  }

  private static boolean allowed(List<Usage> usages) {
    return usages.stream().noneMatch(Usage::overLimit);
  }

  /** Hits a counter holds: the limit minus what is left (fixed and sliding windows, buckets). */
  private long held(Hit hit) {
    return hit.limit().capacity() - store().inspect(hit).join().usage().remaining();
  }

  @Test
  void severalLimits_oneRefuses_chargesNoneOfThem() {
    Charge.Group group =
        several("sev-none", Charge.Policy.TOGETHER, 1, fixed(3, Unit.DAY), fixed(10, Unit.HOUR));
    for (int i = 0; i < 3; i++) {
      assertThat(allowed(charge(store(), group))).isTrue();
    }
    List<Usage> refused = charge(store(), group);
    assertThat(refused.get(0).overLimit()).isTrue();
    assertThat(refused.get(1).overLimit()).as("the hour fits").isFalse();
    assertThat(refused.get(1).remaining()).as("and is not charged").isEqualTo(7);
    assertThat(held(group.hits().get(0))).isEqualTo(3);
    assertThat(held(group.hits().get(1))).isEqualTo(3);
  }

  @Test
  void withRequest_anotherGroupRefuses_chargesNothingButEachStillChargesItsRefusal() {
    Hit strict = new Hit(key("wr-strict"), fixed(10, Unit.DAY), 1);
    Hit blocked = new Hit(key("wr-blocked"), fixed(0, Unit.DAY), 1);
    List<Usage> usages =
        charge(
            store(),
            single(strict, Charge.Policy.WITH_REQUEST, Charge.Vote.REGULAR),
            single(blocked, Charge.Policy.EACH, Charge.Vote.REGULAR));
    assertThat(usages.get(0).overLimit()).isFalse();
    assertThat(usages.get(0).remaining()).isEqualTo(10);
    assertThat(usages.get(1).overLimit()).isTrue();
    assertThat(held(strict)).isZero();
    assertThat(store().inspect(blocked).join().usage().countAfter())
        .as("a fixed window charged each way counts its refused hit")
        .isEqualTo(1);
    List<Usage> shadowed =
        charge(
            store(),
            single(strict, Charge.Policy.WITH_REQUEST, Charge.Vote.REGULAR),
            single(blocked, Charge.Policy.EACH, Charge.Vote.NONE));
    assertThat(allowed(shadowed.subList(0, 1))).isTrue();
    assertThat(held(strict)).as("a shadow refusal refuses no request").isEqualTo(1);
  }

  @Test
  void withRequest_sameCounterTwiceInOneRequest_neverOverAdmits() {
    Hit hit = new Hit(key("wr-twice"), fixed(1, Unit.DAY), 1);
    Charge.Group group = single(hit, Charge.Policy.WITH_REQUEST, Charge.Vote.REGULAR);
    List<Usage> usages = charge(store(), group, group);
    assertThat(usages.get(1).overLimit()).isTrue();
    assertThat(held(hit)).isZero();
  }

  @Test
  void severalLimits_concurrentFromTwoInstances_allowExactlyTheTightest() throws Exception {
    Charge.Group group =
        several(
            "race-several",
            Charge.Policy.TOGETHER,
            1,
            fixed(100, Unit.HOUR),
            bucket(60, Unit.DAY, 60),
            sliding(80, Unit.DAY));
    CounterStore[] instances = {store(), secondInstance()};
    int allowed =
        Hammer.countAllowed(THREADS, 20, t -> () -> allowed(charge(instances[t % 2], group)));
    assertThat(allowed).isEqualTo(60);
    for (Hit hit : group.hits()) {
      assertThat(held(hit)).as("%s holds exactly the allowed hits", hit.key()).isEqualTo(60);
    }
  }

  @Test
  void withRequest_concurrentFromTwoInstances_countersHoldExactlyTheAllowedHits() throws Exception {
    Hit wide = new Hit(key("race-wr-wide"), fixed(100, Unit.HOUR), 1);
    Hit narrow = new Hit(key("race-wr-narrow"), sliding(50, Unit.DAY), 1);
    Hit bucketed = new Hit(key("race-wr-bucket"), bucket(70, Unit.DAY, 70), 1);
    Charge.Group[] groups = {
      single(wide, Charge.Policy.WITH_REQUEST, Charge.Vote.REGULAR),
      single(narrow, Charge.Policy.WITH_REQUEST, Charge.Vote.REGULAR),
      single(bucketed, Charge.Policy.WITH_REQUEST, Charge.Vote.REGULAR)
    };
    CounterStore[] instances = {store(), secondInstance()};
    int allowed =
        Hammer.countAllowed(THREADS, 20, t -> () -> allowed(charge(instances[t % 2], groups)));
    assertThat(allowed).isEqualTo(50);
    assertThat(held(wide)).isEqualTo(50);
    assertThat(held(narrow)).isEqualTo(50);
    assertThat(held(bucketed)).isEqualTo(50);
  }

  private void assertExactlyLimitAllowed(Limit limit, String key) throws Exception {
    int attemptsPerThread = 20;
    CounterStore[] instances = {store(), secondInstance()};
    Hit hit = new Hit(key, limit, 1);
    int allowed =
        Hammer.countAllowed(
            THREADS, attemptsPerThread, t -> () -> !acquireOne(instances[t % 2], hit).overLimit());
    assertThat(THREADS * attemptsPerThread).isGreaterThan((int) limit.capacity());
    assertThat(allowed).isEqualTo(limit.capacity());
  }
}
