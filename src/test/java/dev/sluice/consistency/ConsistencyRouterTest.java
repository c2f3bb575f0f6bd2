package dev.sluice.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Charge;
import dev.sluice.store.Charged;
import dev.sluice.store.CounterState;
import dev.sluice.store.Hit;
import dev.sluice.store.LocalView;
import dev.sluice.store.Usage;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.LaterStore;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each hit counted by its limit's mode, the answers in the request's order. */
class ConsistencyRouterTest {
  private static final Limit EXACT = Limit.of(100, Unit.MINUTE, Algorithm.FIXED_WINDOW);

  private final FakeClock clock = new FakeClock(Instant.ofEpochSecond(1_700_000_010L));
  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
  private final InMemoryCounterStore exact = new InMemoryCounterStore(clock, clock);
  private final SyncedCounters synced =
      new SyncedCounters(
          clock,
          exact,
          clock,
          new SyncedCounters.Settings(Duration.ofMillis(200), 10, Duration.ofSeconds(1)),
          metrics.consistency());
  private final SplitCounters split =
      new SplitCounters(
          new InMemoryCounterStore(clock, clock),
          Optional.empty(),
          4,
          clock,
          Duration.ofSeconds(1),
          metrics.consistency(),
          () -> true);
  private final ConsistencyRouter router = new ConsistencyRouter(exact, synced, split);

  @Test
  void acquire_mixedModes_answersEachInOrderAndOnlyExactReachesTheStoreNow() {
    exact.acquire(List.of(new Hit("fw|60|k", EXACT, 40))).join();
    List<Hit> hits =
        List.of(
            new Hit("fw|60|k", EXACT.withConsistency(Consistency.SPLIT), 1),
            new Hit("fw|60|k", EXACT, 2),
            new Hit("fw|60|k", EXACT.withConsistency(Consistency.SYNCED), 3));

    List<Usage> usages = router.acquire(hits).join();

    assertThat(usages).extracting(Usage::countAfter).containsExactly(1L, 42L, 3L);
    assertThat(usages.get(0).remaining()).as("split: 100 / 4 instances").isEqualTo(24);
    assertThat(exact.inspect(hits.get(1)).join().usage().countAfter()).isEqualTo(42);
    synced.close(); // flushes the synced delta into the shared counter the exact hits use
    assertThat(exact.inspect(hits.get(1)).join().usage().countAfter()).isEqualTo(45);
  }

  @Test
  void charge_exactHitsOnTheMemoryStore_answeredNow() {
    Hit hit = new Hit("fw|60|now", EXACT, 5);

    Charged answer = router.charge(Charge.independent(List.of(hit)));

    assertThat(answer).isInstanceOf(Charged.Now.class);
    assertThat(answer.future().join()).extracting(Usage::countAfter).containsExactly(5L);
    assertThat(exact.inspect(hit).join().usage().countAfter()).isEqualTo(5);
  }

  @Test
  void charge_aSyncedHit_answeredNowWithoutTheSharedStore() {
    Hit hit = new Hit("fw|60|local", EXACT.withConsistency(Consistency.SYNCED), 5);

    Charged answer = router.charge(Charge.independent(List.of(hit)));

    assertThat(answer).isInstanceOf(Charged.Now.class);
    assertThat(answer.future().join()).extracting(Usage::countAfter).containsExactly(5L);
    assertThat(exact.inspect(new Hit("fw|60|local", EXACT, 0)).join().exists()).isFalse();
  }

  @Test
  void charge_mixedModesOnTheMemoryStore_answeredNowInOrder() {
    List<Hit> hits =
        List.of(
            new Hit("fw|60|mixed", EXACT.withConsistency(Consistency.SPLIT), 1),
            new Hit("fw|60|mixed", EXACT, 2),
            new Hit("fw|60|mixed", EXACT.withConsistency(Consistency.SYNCED), 3));

    Charged answer = router.charge(Charge.independent(hits));

    assertThat(answer).isInstanceOf(Charged.Now.class);
    assertThat(answer.future().join()).extracting(Usage::countAfter).containsExactly(1L, 2L, 3L);
  }

  @Test
  void charge_exactStoreAnswersLater_mixedAnswerFollowsItInOrder() {
    LaterStore later = new LaterStore(exact);
    ConsistencyRouter overLater = new ConsistencyRouter(later, synced, split);
    List<Hit> hits =
        List.of(
            new Hit("fw|60|late", EXACT, 2),
            new Hit("fw|60|late", EXACT.withConsistency(Consistency.SPLIT), 1));

    Charged answer = overLater.charge(Charge.independent(hits));

    assertThat(answer).isInstanceOf(Charged.Later.class);
    assertThat(answer.future()).isNotDone();
    later.answerAll();
    assertThat(answer.future().join()).extracting(Usage::countAfter).containsExactly(2L, 1L);
  }

  @Test
  void inspect_syncedAndSplit_showThisInstancesView() {
    Hit syncedHit = new Hit("fw|60|v", EXACT.withConsistency(Consistency.SYNCED), 0);
    Hit splitHit = new Hit("fw|60|v", EXACT.withConsistency(Consistency.SPLIT), 0);
    exact.acquire(List.of(new Hit("fw|60|v", EXACT, 7))).join();

    CounterState none = router.inspect(syncedHit).join();
    assertThat(none.local()).contains(new LocalView(Consistency.SYNCED, 7, 0, 0));

    router.acquire(List.of(new Hit("fw|60|v", syncedHit.limit(), 2))).join();
    CounterState held = router.inspect(syncedHit).join();
    assertThat(held.usage().countAfter()).isEqualTo(2);
    assertThat(held.local()).contains(new LocalView(Consistency.SYNCED, 0, 2, 0));

    router.acquire(List.of(new Hit("fw|60|v", splitHit.limit(), 3))).join();
    CounterState share = router.inspect(splitHit).join();
    assertThat(share.usage().remaining()).isEqualTo(22);
    assertThat(share.local()).contains(new LocalView(Consistency.SPLIT, 0, 0, 4));
    assertThat(router.inspect(new Hit("fw|60|v", EXACT, 0)).join().local()).isEmpty();
  }
}
