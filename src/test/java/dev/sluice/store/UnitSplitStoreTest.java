package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Second limits to the per-second store, the rest to the main one, answers in request order. */
class UnitSplitStoreTest {
  private static final Limit PER_SECOND = Limit.of(3, Unit.SECOND, Algorithm.FIXED_WINDOW);
  private static final Limit PER_MINUTE = Limit.of(10, Unit.MINUTE, Algorithm.FIXED_WINDOW);
  private static final Limit BUCKET_SECOND = Limit.of(5, Unit.SECOND, Algorithm.TOKEN_BUCKET);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final InMemoryCounterStore main = new InMemoryCounterStore(clock, clock);
  private final InMemoryCounterStore perSecond = new InMemoryCounterStore(clock, clock);
  private final UnitSplitStore split = new UnitSplitStore(main, perSecond);

  private static long count(CounterStore store, Hit hit) {
    CounterState state = store.inspect(hit).join();
    return state.exists() ? state.usage().countAfter() : 0;
  }

  @Test
  void acquire_mixedUnits_eachStoreCountsOnlyItsHits_usagesInRequestOrder() {
    Hit a = new Hit("a", PER_MINUTE, 1);
    Hit b = new Hit("b", PER_SECOND, 2);
    Hit c = new Hit("c", PER_MINUTE, 4);
    Hit d = new Hit("d", BUCKET_SECOND, 1);

    List<Usage> usages = split.acquire(List.of(a, b, c, d)).join();

    assertThat(usages).extracting(Usage::remaining).containsExactly(9L, 1L, 6L, 4L);
    assertThat(count(main, a)).isEqualTo(1);
    assertThat(count(main, c)).isEqualTo(4);
    assertThat(count(main, b)).as("second limit never on the main store").isZero();
    assertThat(count(perSecond, b)).isEqualTo(2);
    assertThat(count(perSecond, a)).as("minute limit never on the per-second store").isZero();
    assertThat(count(split, b)).as("inspect routes by unit too").isEqualTo(2);
  }

  @Test
  void acquire_onlyMinuteHits_neverTouchesAFailingPerSecondStore() {
    UnitSplitStore withDeadSecond = new UnitSplitStore(main, new Failing());
    Hit minute = new Hit("m", PER_MINUTE, 1);

    assertThat(withDeadSecond.acquire(List.of(minute)).join()).hasSize(1);
    assertThatThrownBy(
            () -> withDeadSecond.acquire(List.of(minute, new Hit("s", PER_SECOND, 1))).join())
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(StoreException.class);
  }

  @Test
  void acquire_empty_isEmpty() {
    assertThat(split.acquire(List.of()).join()).isEmpty();
  }

  /** A per-second Redis that is down. */
  private static final class Failing implements CounterStore {
    @Override
    public Charged charge(Charge charge) {
      return Charged.failed(new StoreException("per-second redis down"));
    }

    @Override
    public CompletableFuture<CounterState> inspect(Hit hit) {
      return CompletableFuture.failedFuture(new StoreException("down"));
    }

    @Override
    public CompletableFuture<CounterState> reset(Hit hit) {
      return CompletableFuture.failedFuture(new StoreException("down"));
    }

    @Override
    public void ping() {
      throw new StoreException("down");
    }

    @Override
    public String kind() {
      return "redis_per_second";
    }

    @Override
    public void close() {}
  }
}
