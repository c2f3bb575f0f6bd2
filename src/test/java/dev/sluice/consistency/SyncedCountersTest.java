package dev.sluice.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.DatedHit;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.FixedWindow;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Synced counting on the fake clock (which is also the scheduler) and the real memory store. */
class SyncedCountersTest {
  private static final Duration INTERVAL = Duration.ofMillis(200);
  private static final Limit LIMIT =
      Limit.of(10, Unit.MINUTE, Algorithm.FIXED_WINDOW).withConsistency(Consistency.SYNCED);
  private static final String KEY = "fw|60|api|user=alice";

  /** 10 s into a minute window, so a test that does not mean to cross a boundary does not. */
  private final FakeClock clock = new FakeClock(Instant.ofEpochSecond(1_700_000_040L + 10));

  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
  private final SharedStore shared = new SharedStore(new InMemoryCounterStore(clock, clock));
  private final SyncedCounters counters = newCounters(10);

  private SyncedCounters newCounters(long maxCounters) {
    return new SyncedCounters(
            clock,
            shared,
            clock,
            new SyncedCounters.Settings(INTERVAL, maxCounters, Duration.ofSeconds(1)),
            metrics.consistency())
        .start();
  }

  @AfterEach
  void close() {
    counters.close();
  }

  private static Hit hit(long hits) {
    return new Hit(KEY, LIMIT, hits);
  }

  private Usage take(SyncedCounters on, long hits) {
    return on.take(hit(hits)).orElseThrow();
  }

  /** The shared store's count of the current window. */
  private long sharedCount() {
    return shared.store.inspect(hit(0)).join().usage().countAfter();
  }

  @Test
  void take_beforeTheSync_decidesLocallyAndTouchesNoStore() {
    assertThat(take(counters, 3).countAfter()).isEqualTo(3);
    Usage fourth = take(counters, 8);

    assertThat(fourth.overLimit()).isTrue();
    assertThat(fourth.countAfter()).isEqualTo(11);
    assertThat(shared.pushes).isEmpty();
    assertThat(sharedCount()).isZero();
  }

  @Test
  void sync_everyInterval_pushesTheDeltaOnceAndOnlyWhatWasTouched() {
    take(counters, 3);
    clock.advance(INTERVAL.minusMillis(1));
    assertThat(shared.pushes).isEmpty();

    clock.advance(Duration.ofMillis(1));
    assertThat(shared.pushes).hasSize(1);
    assertThat(shared.pushes.get(0)).extracting(d -> d.hit().hits()).containsExactly(3L);
    assertThat(sharedCount()).isEqualTo(3);
    assertThat(counters.unsynced()).isZero();

    clock.advance(INTERVAL.multipliedBy(5));
    assertThat(shared.pushes).as("nothing touched, nothing sent").hasSize(1);

    take(counters, 2);
    clock.advance(INTERVAL);
    assertThat(shared.pushes).hasSize(2);
    assertThat(sharedCount()).isEqualTo(5);
  }

  @Test
  void sync_readsTheGlobalBack_soAnotherInstancesHitsCount() {
    SyncedCounters other = newCounters(10);
    try {
      take(counters, 4);
      take(other, 5);
      clock.advance(INTERVAL);

      assertThat(sharedCount()).isEqualTo(9);
      // The instance that synced second read both pushes back; the first only its own.
      assertThat(take(other, 0).countAfter()).isEqualTo(9);
      assertThat(take(counters, 1).countAfter()).isEqualTo(5);
      clock.advance(INTERVAL);
      assertThat(sharedCount()).isEqualTo(10);
      assertThat(take(counters, 1).overLimit()).as("now decided on the global 10").isTrue();
      assertThat(take(other, 0).countAfter()).isEqualTo(10);
    } finally {
      other.close();
    }
  }

  @Test
  void rollover_betweenSyncs_pushesTheEndedWindowIntoItselfAndStartsTheNextAtZero() {
    long windowMillis = Unit.MINUTE.millis();
    long end = (FixedWindow.index(clock.millis(), windowMillis) + 1) * windowMillis;
    clock.advance(Duration.ofMillis(end - clock.millis() - 50));
    long oldIndex = FixedWindow.index(clock.millis(), windowMillis);
    take(counters, 9);
    clock.advance(Duration.ofMillis(100)); // crosses the boundary; the sync falls after it
    assertThat(FixedWindow.index(clock.millis(), windowMillis)).isEqualTo(oldIndex + 1);

    Usage fresh = take(counters, 1);
    assertThat(fresh.countAfter()).as("no hits carried into the next window").isEqualTo(1);
    clock.advance(INTERVAL);

    DatedHit ended =
        shared.pushes.stream()
            .flatMap(p -> p.stream())
            .filter(d -> d.hit().hits() == 9)
            .findFirst()
            .orElseThrow();
    assertThat(FixedWindow.index(ended.atMillis(), windowMillis)).isEqualTo(oldIndex);
    assertThat(sharedCount()).as("the new window holds only its own hit").isEqualTo(1);
    assertThat(counters.unsynced()).isZero();
  }

  @Test
  void storeDown_keepsDecidingAndKeepsTheDeltas_thenPushesThemWhenBack() {
    shared.up = false;
    take(counters, 4);
    clock.advance(INTERVAL);

    assertThat(counters.failing()).isPresent();
    assertThat(counters.unsynced()).isEqualTo(4);
    assertThat(take(counters, 3).countAfter()).as("still decided locally").isEqualTo(7);
    clock.advance(INTERVAL.multipliedBy(3));
    assertThat(counters.unsynced()).isEqualTo(7);
    assertThat(sharedCount()).isZero();

    shared.up = true;
    clock.advance(INTERVAL);
    assertThat(sharedCount()).isEqualTo(7);
    assertThat(counters.unsynced()).isZero();
    assertThat(counters.failing()).isEmpty();
    assertThat(take(counters, 0).countAfter()).isEqualTo(7);
  }

  @Test
  void storeDown_untilTheWindowEnded_dropsThoseDeltasAndCountsThem() throws IOException {
    shared.up = false;
    take(counters, 6);
    clock.advance(Duration.ofSeconds(60)); // past the window's end, every sync failing
    shared.up = true;
    clock.advance(INTERVAL);

    assertThat(counters.unsynced()).isZero();
    assertThat(sharedCount()).isZero();
    assertThat(metricsText())
        .contains("sluice_sync_dropped_hits_total{reason=\"window_ended\"} 6.0");
  }

  @Test
  void close_flushesWhatIsPending() {
    take(counters, 3);
    counters.close();

    assertThat(sharedCount()).isEqualTo(3);
    assertThat(counters.unsynced()).isZero();
    assertThat(clock.pendingTasks()).as("the schedule was cancelled").isZero();
  }

  @Test
  void take_pastMaxCounters_declinesNewCountersOnly() throws IOException {
    SyncedCounters small = newCounters(1);
    try {
      assertThat(small.take(hit(1))).isPresent();
      assertThat(small.take(new Hit("fw|60|api|user=bob", LIMIT, 1))).isEmpty();
      assertThat(small.take(hit(1))).isPresent();
      assertThat(metricsText()).contains("sluice_sync_overflow_total 1.0");
    } finally {
      small.close();
    }
  }

  @Test
  void inspect_showsTheKnownGlobalAndTheUnsyncedHits() {
    SyncedCounters other = newCounters(10);
    try {
      take(counters, 1);
      take(other, 5);
      clock.advance(INTERVAL);
      take(counters, 0); // touched: the next sync reads the global back
      clock.advance(INTERVAL);
      take(counters, 2);

      SyncedCounters.View view = counters.inspect(hit(0)).orElseThrow();
      assertThat(view.knownGlobal()).isEqualTo(6);
      assertThat(view.unsynced()).isEqualTo(2);
      assertThat(view.local().usage().countAfter()).isEqualTo(8);
      assertThat(counters.inspect(new Hit("fw|60|api|user=nobody", LIMIT, 0)))
          .isEqualTo(Optional.empty());
    } finally {
      other.close();
    }
  }

  private String metricsText() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.writeText(out);
    return out.toString(StandardCharsets.UTF_8);
  }
}
