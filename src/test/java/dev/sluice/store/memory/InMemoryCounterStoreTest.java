package dev.sluice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.CounterStore;
import dev.sluice.store.CounterStoreContract;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.CountingAlgorithm;
import dev.sluice.store.algorithm.TokenBucketState;
import dev.sluice.testing.FakeClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class InMemoryCounterStoreTest extends CounterStoreContract {
  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_020L);
  private final InMemoryCounterStore store = new InMemoryCounterStore(clock, clock);

  @Override
  protected CounterStore store() {
    return store;
  }

  @Override
  protected CounterStore secondInstance() {
    return store;
  }

  @Override
  protected boolean answersNow() {
    return true;
  }

  @Test
  void fixedWindow_nextWindow_startsAtZero() {
    Hit hit = new Hit(key("roll"), fixed(1, Unit.MINUTE), 1);
    assertThat(acquireOne(store, hit).untilReset()).isEqualTo(Duration.ofSeconds(20));
    assertThat(acquireOne(store, hit).overLimit()).isTrue();
    clock.advance(Duration.ofSeconds(19));
    assertThat(acquireOne(store, hit).overLimit()).isTrue();
    clock.advance(Duration.ofSeconds(1));
    Usage fresh = acquireOne(store, hit);
    assertThat(fresh.overLimit()).isFalse();
    assertThat(fresh.untilReset()).isEqualTo(Duration.ofMinutes(1));
  }

  /** Issue 11.2: two huge hits once wrapped the count negative and let the next request through. */
  @Test
  void fixedWindow_hugeHits_saturateAtTheTopInsteadOfWrapping() {
    Hit first = new Hit(key("huge"), fixed(5, Unit.HOUR), 1L << 62);
    Hit second = new Hit(key("huge"), fixed(5, Unit.HOUR), Long.MAX_VALUE);
    acquireOne(store, first);
    assertThat(acquireOne(store, second).countAfter()).isEqualTo(Long.MAX_VALUE);
    Usage next = acquireOne(store, new Hit(key("huge"), fixed(5, Unit.HOUR), 1));
    assertThat(next.overLimit()).isTrue();
    assertThat(next.remaining()).isZero();
    assertThat(next.countAfter()).isEqualTo(Long.MAX_VALUE);
  }

  /** Issue 11.10: more than the burst was OVER_LIMIT with reset 0, at any time. */
  @Test
  void tokenBucket_moreThanTheBurst_resetIsAWholeRefillWhateverTheBucketHolds() {
    Hit tooMany = new Hit(key("above-burst-clock"), bucket(60, Unit.MINUTE, 10), 11);
    Hit one = new Hit(tooMany.key(), tooMany.limit(), 1);
    // One token a second, 10 in the bucket: a whole refill is 10 s, whether full, or not.
    assertThat(acquireOne(store, tooMany).untilReset()).isEqualTo(Duration.ofSeconds(10));
    for (int i = 0; i < 10; i++) {
      acquireOne(store, one);
    }
    clock.advance(Duration.ofMillis(2_500));
    Usage empty = acquireOne(store, tooMany);
    assertThat(empty.overLimit()).isTrue();
    assertThat(empty.remaining()).isEqualTo(2);
    assertThat(empty.untilReset()).isEqualTo(Duration.ofSeconds(10));
    // The state is untouched: the bucket is still 2.5 tokens, full 7.5 s later.
    assertThat(acquireOne(store, one).untilReset()).isEqualTo(Duration.ofMillis(8_500));
  }

  @Test
  void fixedWindow_windowsAlignToEpoch() {
    clock.set(java.time.Instant.ofEpochSecond(3_600 * 10 + 1_234));
    Usage usage = acquireOne(store, new Hit(key("align"), fixed(5, Unit.HOUR), 1));
    assertThat(usage.untilReset()).isEqualTo(Duration.ofSeconds(3_600 - 1_234));
  }

  @Test
  void slidingWindow_previousWindowWeighsByItsShareStillInsideTheRollingWindow() {
    // The clock starts 40 s into a minute.
    Hit six = new Hit(key("sw-weigh"), sliding(10, Unit.MINUTE), 6);
    assertThat(acquireOne(store, six).untilReset()).isEqualTo(Duration.ofSeconds(20));
    clock.advance(Duration.ofSeconds(35)); // 15 s into the next minute: 6 × 0.75 = 4.5
    Usage five = acquireOne(store, new Hit(six.key(), six.limit(), 5));
    assertThat(five.overLimit()).isFalse();
    assertThat(five.remaining()).as("floor(10 - 9.5)").isZero();
    assertThat(five.untilReset()).isEqualTo(Duration.ofSeconds(45));
    Hit one = new Hit(six.key(), six.limit(), 1);
    Usage refused = acquireOne(store, one);
    assertThat(refused.overLimit()).isTrue();
    // 6 × (1 - f) + 5 + 1 <= 10 once f >= 1/3, 20 s into the minute: 5 s from now.
    assertThat(refused.untilReset()).isEqualTo(Duration.ofSeconds(5));
    clock.advance(Duration.ofMillis(4_999));
    assertThat(acquireOne(store, one).overLimit()).isTrue();
    clock.advance(Duration.ofMillis(1));
    assertThat(acquireOne(store, one).overLimit()).isFalse();
  }

  @Test
  void slidingWindow_currentWindowFull_waitsIntoTheNextWindow() {
    Hit ten = new Hit(key("sw-next"), sliding(10, Unit.MINUTE), 10);
    acquireOne(store, ten);
    Hit one = new Hit(ten.key(), ten.limit(), 1);
    // 20 s to the end of this minute, then 10 × (1 - g) + 1 <= 10 once g >= 0.1: 6 s more.
    assertThat(acquireOne(store, one).untilReset()).isEqualTo(Duration.ofSeconds(26));
    clock.advance(Duration.ofSeconds(25));
    assertThat(acquireOne(store, one).overLimit()).isTrue();
    clock.advance(Duration.ofSeconds(1));
    Usage allowed = acquireOne(store, one);
    assertThat(allowed.overLimit()).isFalse();
    assertThat(allowed.remaining()).as("floor(10 - 9 - 1)").isZero();
  }

  @Test
  void slidingWindow_hitsAboveTheLimitAndOldWindows_oneWindowAndForgotten() {
    Hit eleven = new Hit(key("sw-huge"), sliding(10, Unit.MINUTE), 11);
    Usage huge = acquireOne(store, eleven);
    assertThat(huge.overLimit()).isTrue();
    assertThat(huge.untilReset()).isEqualTo(Duration.ofMinutes(1));
    Hit ten = new Hit(eleven.key(), eleven.limit(), 10);
    assertThat(acquireOne(store, ten).overLimit()).isFalse();
    clock.advance(Duration.ofSeconds(20 + 60));
    Usage fresh = acquireOne(store, new Hit(ten.key(), ten.limit(), 1));
    assertThat(fresh.remaining()).as("two windows later nothing remains of it").isEqualTo(9);
  }

  @Test
  void tokenBucket_refillsContinuouslyAtTheRate() {
    Hit hit = new Hit(key("refill"), bucket(10, Unit.SECOND, 10), 10);
    assertThat(acquireOne(store, hit).remaining()).isZero();
    Hit one = new Hit(hit.key(), hit.limit(), 1);
    Usage empty = acquireOne(store, one);
    assertThat(empty.overLimit()).isTrue();
    assertThat(empty.untilReset()).isEqualTo(Duration.ofMillis(100));
    clock.advance(Duration.ofMillis(250));
    Usage afterRefill = acquireOne(store, one);
    assertThat(afterRefill.overLimit()).isFalse();
    assertThat(afterRefill.remaining()).isEqualTo(1);
    assertThat(afterRefill.untilReset()).isEqualTo(Duration.ofMillis(850));
  }

  /**
   * A stored bucket is taken from in place, on plain values; the answers must be, to the
   * microsecond, those of {@link TokenBucketState#take} chained from a full bucket, through
   * refusals, partial refills and a refill to full.
   */
  @Test
  void tokenBucket_takenInPlace_answersAsThePureTakeStepByStep() {
    Limit limit = bucket(7, Unit.SECOND, 5);
    Hit one = new Hit(key("twin"), limit, 1);
    long[][] steps = { // {microseconds to advance, hits}
      {0, 1},
      {0, 3},
      {0, 2},
      {1, 1},
      {90_000, 1},
      {142_857, 1},
      {13, 2},
      {400_001, 3},
      {0, 0},
      {5_000_000, 4},
      {1, 5},
      {999, 1}
    };
    long nowMicros = CountingAlgorithm.epochMicros(clock.instant());
    TokenBucketState pure = TokenBucketState.full(limit, nowMicros);
    for (long[] step : steps) {
      clock.advance(Duration.ofNanos(step[0] * 1000));
      nowMicros += step[0];
      Hit hit = new Hit(one.key(), limit, step[1]);
      TokenBucketState.Take expected = pure.take(limit, hit.hits(), nowMicros);
      if (!expected.usage().overLimit()) {
        pure = expected.state();
      }
      assertThat(acquireOne(store, hit))
          .as("after %d us, %d hits", step[0], step[1])
          .isEqualTo(expected.usage());
    }
  }

  @Test
  void tokenBucket_neverHoldsMoreThanBurst() {
    Hit hit = new Hit(key("cap"), bucket(10, Unit.SECOND, 5), 1);
    acquireOne(store, hit);
    clock.advance(Duration.ofHours(1));
    assertThat(acquireOne(store, hit).remaining()).isEqualTo(4);
  }

  @Test
  void tokenBucket_tooLargeForBurst_reportsAWholeRefillNotTheTimeUntilFull() {
    Hit small = new Hit(key("huge"), bucket(1, Unit.SECOND, 2), 1);
    acquireOne(store, small);
    Usage huge = acquireOne(store, new Hit(small.key(), small.limit(), 3));
    assertThat(huge.overLimit()).isTrue();
    // Full in 1 s, but full is not enough; "until full" was 0 for a full bucket (issue 11.10).
    assertThat(huge.untilReset()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void tokenBucket_refillTakingCenturies_reportsAPositiveResetTime() {
    // 1000 tokens at one per year: 1000 years in microseconds overflows a long of nanoseconds.
    Hit drain = new Hit(key("slow"), bucket(1, Unit.YEAR, 1_000), 1_000);
    assertThat(acquireOne(store, drain).untilReset())
        .isGreaterThan(Unit.YEAR.window().multipliedBy(999));
  }

  @Test
  void sweep_onTheScheduler_removesCountersWhenTheirWindowEndsOrTheBucketIsFull() {
    store.start();
    acquireOne(store, new Hit(key("fw"), fixed(3, Unit.SECOND), 1));
    acquireOne(store, new Hit(key("tb"), bucket(1, Unit.SECOND, 2), 2));
    assertThat(store.size()).isEqualTo(2);
    clock.advance(Duration.ofMillis(999));
    assertThat(store.size()).as("no sweep before its first second").isEqualTo(2);
    clock.advance(Duration.ofMillis(1));
    assertThat(store.size()).as("the window ended; the bucket is not full yet").isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    assertThat(store.size()).isZero();
  }

  @Test
  void constructor_schedulesNothing_closeCancelsTheSweep() {
    InMemoryCounterStore other = new InMemoryCounterStore(clock, clock);
    assertThat(clock.pendingTasks()).isZero();
    other.start();
    assertThat(clock.pendingTasks()).isEqualTo(1);
    other.close();
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void expiredCounter_readsAsAbsent_beforeTheSweep() {
    Hit hit = new Hit(key("stale"), fixed(1, Unit.SECOND), 1);
    acquireOne(store, hit);
    clock.advance(Duration.ofSeconds(1));
    assertThat(store.size()).as("not swept: never started").isEqualTo(1);
    assertThat(acquireOne(store, hit).overLimit()).as("counted afresh").isFalse();
  }

  /** Counters are charged in place (issue 16): what an inspect or a usage read stays as read. */
  @Test
  void chargesInPlace_earlierReadsAndUsages_keepTheValuesTheyRead() {
    Hit fixedHit = new Hit(key("in-place-fw"), fixed(10, Unit.MINUTE), 1);
    Hit bucketHit = new Hit(key("in-place-tb"), bucket(10, Unit.MINUTE, 10), 1);
    Usage firstFixed = acquireOne(store, fixedHit);
    Usage firstBucket = acquireOne(store, bucketHit);
    var inspected = store.inspect(fixedHit).join();
    acquireOne(store, fixedHit);
    acquireOne(store, bucketHit);
    var bucketRead = store.inspect(bucketHit).join();
    clock.advance(Duration.ofMinutes(1));
    Usage nextWindow = acquireOne(store, fixedHit);

    assertThat(firstFixed.countAfter()).isEqualTo(1);
    assertThat(firstBucket.remaining()).isEqualTo(9);
    assertThat(inspected.usage().countAfter()).isEqualTo(1);
    assertThat(nextWindow.countAfter()).as("the stored window moved on").isEqualTo(1);
    assertThat(bucketRead.usage().remaining()).isEqualTo(8);
  }
}
