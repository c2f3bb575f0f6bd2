package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.rules.Window;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.Hammer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Windows other than one unit ({@code unit_multiplier}, {@code time_zone}) on every store, driven
 * by a {@link FakeClock} across window boundaries and a DST change. Fixed windows count on the
 * service clock on both stores, so those answers are exact everywhere; token buckets and sliding
 * windows read Redis's own {@code TIME} there, so for them this asserts what does not depend on
 * real time passing (rates slow enough that milliseconds do not matter), and the memory store's
 * test adds the exact refill.
 */
public abstract class WindowStoreContract {
  protected static final int THREADS = 32;

  /**
   * A store whose service clock is {@code clock}; each call another instance on the same backend
   * (memory: the same store), as two Sluice instances sharing one Redis.
   */
  protected abstract CounterStore storeOn(FakeClock clock);

  private final String unique = UUID.randomUUID().toString();

  protected String key(String name) {
    return name + "-" + unique;
  }

  protected static Limit limit(long rate, Window window, Algorithm algorithm) {
    return new Limit(rate, window, algorithm, rate, Consistency.EXACT);
  }

  protected static Usage take(CounterStore store, Hit hit) {
    return store.acquire(List.of(hit)).join().get(0);
  }

  protected static FakeClock clockAt(String instant) {
    return new FakeClock(Instant.parse(instant));
  }

  private static Instant local(String dateTime, String zone) {
    return LocalDateTime.parse(dateTime).atZone(ZoneId.of(zone)).toInstant();
  }

  @Test
  void fixedWindow_fifteenMinutes_resetsAtTheEpochAlignedBoundary() {
    FakeClock clock = clockAt("2024-05-01T10:37:12Z");
    CounterStore store = storeOn(clock);
    Hit hit =
        new Hit(
            key("fw-15m"), limit(3, new Window.Fixed(Unit.MINUTE, 15), Algorithm.FIXED_WINDOW), 1);
    for (int i = 1; i <= 3; i++) {
      Usage usage = take(store, hit);
      assertThat(usage.overLimit()).as("hit %d", i).isFalse();
      assertThat(usage.untilReset()).isEqualTo(Duration.ofMinutes(7).plusSeconds(48));
    }
    assertThat(take(store, hit).overLimit()).isTrue();
    clock.advance(Duration.ofMinutes(7).plusSeconds(48).minusMillis(1));
    Usage last = take(store, hit);
    assertThat(last.overLimit()).as("10:44:59.999 is still the window of 10:30").isTrue();
    assertThat(last.untilReset()).isEqualTo(Duration.ofMillis(1));
    clock.advance(Duration.ofMillis(1));
    Usage fresh = take(store, hit);
    assertThat(fresh.overLimit()).isFalse();
    assertThat(fresh.remaining()).isEqualTo(2);
    assertThat(fresh.untilReset()).isEqualTo(Duration.ofMinutes(15));
  }

  @Test
  void fixedWindow_sixHours_resetsAtSixInTheMorningUtc() {
    FakeClock clock = clockAt("2024-05-01T05:59:59Z");
    CounterStore store = storeOn(clock);
    Hit hit =
        new Hit(key("fw-6h"), limit(1, new Window.Fixed(Unit.HOUR, 6), Algorithm.FIXED_WINDOW), 1);
    assertThat(take(store, hit).untilReset()).isEqualTo(Duration.ofSeconds(1));
    assertThat(take(store, hit).overLimit()).isTrue();
    clock.advance(Duration.ofSeconds(1));
    Usage fresh = take(store, hit);
    assertThat(fresh.overLimit()).isFalse();
    assertThat(fresh.untilReset()).isEqualTo(Duration.ofHours(6));
  }

  /** Berlin moves to summer time on 31 March 2024: that day is 23 hours. */
  @Test
  void fixedWindow_calendarDayAcrossADstChange_isTwentyThreeHours() {
    FakeClock clock = new FakeClock(local("2024-03-30T23:59:59", "Europe/Berlin"));
    CounterStore store = storeOn(clock);
    Window day = new Window.Calendar(Unit.DAY, ZoneId.of("Europe/Berlin"));
    Hit hit = new Hit(key("fw-dst"), limit(1, day, Algorithm.FIXED_WINDOW), 1);
    assertThat(take(store, hit).untilReset()).isEqualTo(Duration.ofSeconds(1));
    assertThat(take(store, hit).overLimit()).isTrue();
    clock.advance(Duration.ofSeconds(1));
    Usage sunday = take(store, hit);
    assertThat(sunday.overLimit()).isFalse();
    assertThat(sunday.untilReset()).isEqualTo(Duration.ofHours(23));
    clock.advance(Duration.ofHours(23).minusMillis(1));
    assertThat(take(store, hit).overLimit()).as("still 31 March in Berlin").isTrue();
    clock.advance(Duration.ofMillis(1));
    Usage monday = take(store, hit);
    assertThat(monday.overLimit()).isFalse();
    assertThat(monday.untilReset()).isEqualTo(Duration.ofHours(24));
  }

  /**
   * Monday 1 April 2024 starts a day, a week and a month at once; a second before it, in a UTC+14
   * zone and a half-hour one, every calendar window has one second left, and after it each has its
   * own length.
   */
  @ParameterizedTest(name = "{0} in {1}")
  @CsvSource({
    "DAY, Pacific/Kiritimati, 86400",
    "WEEK, Pacific/Kiritimati, 604800",
    "MONTH, Pacific/Kiritimati, 2592000",
    "DAY, Asia/Kolkata, 86400",
    "WEEK, Asia/Kolkata, 604800",
    "MONTH, Asia/Kolkata, 2592000"
  })
  void fixedWindow_calendarWindow_resetsAtTheNextLocalBoundary(
      Unit unit, String zone, long nextSeconds) {
    FakeClock clock = new FakeClock(local("2024-03-31T23:59:59", zone));
    CounterStore store = storeOn(clock);
    Window window = new Window.Calendar(unit, ZoneId.of(zone));
    Hit hit = new Hit(key("fw-cal-" + unit), limit(1, window, Algorithm.FIXED_WINDOW), 1);
    assertThat(take(store, hit).untilReset()).isEqualTo(Duration.ofSeconds(1));
    assertThat(take(store, hit).overLimit()).isTrue();
    clock.advance(Duration.ofSeconds(1));
    Usage fresh = take(store, hit);
    assertThat(fresh.overLimit()).isFalse();
    assertThat(fresh.untilReset()).isEqualTo(Duration.ofSeconds(nextSeconds));
  }

  @Test
  void slidingWindow_thirtyMinutes_countsOverTheWholeWindow() {
    CounterStore store = storeOn(clockAt("2024-05-01T10:37:12Z"));
    Hit hit =
        new Hit(
            key("sw-30m"),
            limit(5, new Window.Fixed(Unit.MINUTE, 30), Algorithm.SLIDING_WINDOW),
            1);
    for (int i = 1; i <= 5; i++) {
      Usage usage = take(store, hit);
      assertThat(usage.overLimit()).as("hit %d", i).isFalse();
      assertThat(usage.untilReset()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(30));
    }
    Usage sixth = take(store, hit);
    assertThat(sixth.overLimit()).isTrue();
    assertThat(sixth.untilReset()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(30));
  }

  /** 6 per 30 minutes: one token every 5 minutes, whatever the clock says now. */
  @Test
  void tokenBucket_sixPerThirtyMinutes_refillsOneTokenEveryFiveMinutes() {
    CounterStore store = storeOn(clockAt("2024-05-01T10:37:12Z"));
    Hit hit =
        new Hit(
            key("tb-30m"), limit(6, new Window.Fixed(Unit.MINUTE, 30), Algorithm.TOKEN_BUCKET), 6);
    assertThat(take(store, hit).remaining()).isZero();
    Usage refused = take(store, new Hit(hit.key(), hit.limit(), 1));
    assertThat(refused.overLimit()).isTrue();
    assertThat(refused.untilReset())
        .isBetween(Duration.ofMinutes(5).minusSeconds(2), Duration.ofMinutes(5));
  }

  /**
   * 28 per calendar month: a token every 29/28 days in February 2024, every 31/28 days in March. On
   * Redis the rate comes from the caller's clock while the refill runs on Redis TIME.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"2024-02-10T00:00:00Z, 29", "2024-03-10T00:00:00Z, 31"})
  void tokenBucket_calendarMonth_refillsPerTheCurrentMonthsLength(String now, long days) {
    CounterStore store = storeOn(clockAt(now));
    Window month = new Window.Calendar(Unit.MONTH, ZoneId.of("Pacific/Kiritimati"));
    Hit all = new Hit(key("tb-month-" + days), limit(28, month, Algorithm.TOKEN_BUCKET), 28);
    assertThat(take(store, all).overLimit()).isFalse();
    Usage refused = take(store, new Hit(all.key(), all.limit(), 1));
    assertThat(refused.overLimit()).isTrue();
    Duration oneToken = Duration.ofDays(days).dividedBy(28);
    assertThat(refused.untilReset()).isBetween(oneToken.minusSeconds(2), oneToken.plusSeconds(1));
  }

  @Test
  void fixedWindow_racingThreadsOnWindowsOfSeveralUnitsAndCalendarMonths_allowExactlyTheLimit()
      throws Exception {
    FakeClock clock = clockAt("2024-05-01T10:37:12Z");
    for (Window window :
        List.of(
            new Window.Fixed(Unit.MINUTE, 15),
            new Window.Calendar(Unit.MONTH, ZoneId.of("Asia/Kolkata")))) {
      assertExactlyTheLimit(clock, limit(100, window, Algorithm.FIXED_WINDOW));
    }
  }

  @Test
  void tokenBucketAndSlidingWindow_racingThreads_allowExactlyTheLimit() throws Exception {
    FakeClock clock = clockAt("2024-05-01T10:37:12Z");
    assertExactlyTheLimit(
        clock,
        limit(100, new Window.Calendar(Unit.MONTH, ZoneId.of("UTC")), Algorithm.TOKEN_BUCKET));
    assertExactlyTheLimit(
        clock, limit(100, new Window.Fixed(Unit.HOUR, 6), Algorithm.SLIDING_WINDOW));
  }

  /** 32 threads behind one latch, on two store instances, 10 attempts each. */
  private void assertExactlyTheLimit(FakeClock clock, Limit limit) throws Exception {
    CounterStore[] instances = {storeOn(clock), storeOn(clock)};
    Hit hit = new Hit(key("race-" + limit.window().keyPart()), limit, 1);
    int allowed =
        Hammer.countAllowed(THREADS, 10, t -> () -> !take(instances[t % 2], hit).overLimit());
    assertThat(allowed).as("%s", limit.describe()).isEqualTo(100);
  }
}
