package dev.sluice.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Unit;
import dev.sluice.rules.Window;
import dev.sluice.store.CounterStore;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.WindowStoreContract;
import dev.sluice.testing.FakeClock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.IdentityHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The window contract on the memory store, plus what only its fake clock can show exactly: the
 * token bucket's and the sliding window's arithmetic as time passes.
 */
class InMemoryWindowTest extends WindowStoreContract {
  /** One store per clock: two "instances" on one clock share it, as they would share a Redis. */
  private final Map<FakeClock, InMemoryCounterStore> stores = new IdentityHashMap<>();

  @Override
  protected CounterStore storeOn(FakeClock clock) {
    return stores.computeIfAbsent(clock, c -> new InMemoryCounterStore(c, c));
  }

  @Test
  void tokenBucket_sixPerThirtyMinutes_oneMoreEveryFiveMinutes() {
    FakeClock clock = clockAt("2024-05-01T10:37:12Z");
    CounterStore store = storeOn(clock);
    Hit one =
        new Hit(
            key("tb-drip"), limit(6, new Window.Fixed(Unit.MINUTE, 30), Algorithm.TOKEN_BUCKET), 1);
    for (int i = 0; i < 6; i++) {
      take(store, one);
    }
    for (int round = 0; round < 3; round++) {
      assertThat(take(store, one).overLimit()).isTrue();
      clock.advance(Duration.ofMinutes(5).minusMillis(1));
      assertThat(take(store, one).overLimit()).as("a millisecond early").isTrue();
      clock.advance(Duration.ofMillis(1));
      assertThat(take(store, one).overLimit()).as("round %d", round).isFalse();
    }
  }

  /**
   * A take refills all the time since the last one at the rate of the window holding the take: the
   * bucket emptied at noon on 29 February and read at midnight starting March has had 12 hours at
   * March's rate (28 per 31 days less an hour), not February's (28 per 29 days).
   */
  @Test
  void tokenBucket_calendarMonthBoundary_refillsTheGapAtTheNewMonthsRate() {
    ZoneId zone = ZoneId.of("Europe/Berlin");
    FakeClock clock =
        new FakeClock(LocalDateTime.parse("2024-02-29T12:00").atZone(zone).toInstant());
    CounterStore store = storeOn(clock);
    Hit all =
        new Hit(
            key("tb-feb-mar"),
            limit(28, new Window.Calendar(Unit.MONTH, zone), Algorithm.TOKEN_BUCKET),
            28);
    take(store, all);
    clock.advance(Duration.ofHours(12));
    Usage check = take(store, new Hit(all.key(), all.limit(), 1));
    assertThat(check.overLimit()).isTrue();
    // March in Berlin is 31 days less the hour lost to summer time.
    Duration marchToken = Duration.ofHours(31 * 24 - 1).dividedBy(28);
    assertThat(check.untilReset())
        .isBetween(
            marchToken.minusHours(12).minusMillis(1), marchToken.minusHours(12).plusMillis(1));
  }

  /**
   * 10 per 30 minutes, all 10 at the start of one window: halfway into the next window the estimate
   * is 5 (the previous window weighs half), so 5 more fit. Windows of one minute would have
   * forgotten them.
   */
  @Test
  void slidingWindow_thirtyMinutes_weighsThePreviousThirtyMinuteWindow() {
    FakeClock clock = clockAt("2024-05-01T10:30:00Z");
    CounterStore store = storeOn(clock);
    Hit one =
        new Hit(
            key("sw-weigh"),
            limit(10, new Window.Fixed(Unit.MINUTE, 30), Algorithm.SLIDING_WINDOW),
            1);
    for (int i = 0; i < 10; i++) {
      assertThat(take(store, one).overLimit()).isFalse();
    }
    assertThat(take(store, one).untilReset()).isPositive();
    clock.advance(Duration.ofMinutes(45));
    for (int i = 1; i <= 5; i++) {
      assertThat(take(store, one).overLimit()).as("hit %d", i).isFalse();
    }
    assertThat(take(store, one).overLimit()).isTrue();
  }
}
