package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BreakerConfig;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The breaker's timing on the fake clock: its probe runs on the scheduler it is given. */
class GuardedStoreTest {
  private static final List<Hit> HITS =
      List.of(new Hit("fw|guarded", Limit.of(100, Unit.HOUR, Algorithm.FIXED_WINDOW), 1));

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final Backend backend = new Backend(new InMemoryCounterStore(clock, clock));
  private final GuardedStore store =
      new GuardedStore(
          backend,
          new BreakerConfig(3, Duration.ofMillis(500)),
          new SluiceMetrics(new PrometheusRegistry()),
          clock);

  @AfterEach
  void close() {
    store.close();
  }

  private boolean acquireFails() {
    return store.acquire(HITS).isCompletedExceptionally();
  }

  @Test
  void constructor_schedulesNothing_startSchedulesTheProbe_closeCancelsIt() {
    assertThat(clock.pendingTasks()).isZero();
    store.start();
    assertThat(clock.pendingTasks()).isEqualTo(1);
    store.close();
    assertThat(clock.pendingTasks()).isZero();
  }

  @Test
  void openBreaker_probeOnTheFakeClock_halfOpensThenCloses() {
    store.start();
    backend.up = false;
    for (int i = 0; i < 3; i++) {
      assertThat(acquireFails()).isTrue();
    }
    assertThat(store.state()).isEqualTo("open");
    clock.advance(Duration.ofMillis(500));
    assertThat(store.state()).as("the probe's ping failed").isEqualTo("open");

    backend.up = true;
    clock.advance(Duration.ofMillis(499));
    assertThat(store.state()).as("no probe before its interval").isEqualTo("open");
    assertThat(acquireFails()).as("open: answered without the backend").isTrue();
    clock.advance(Duration.ofMillis(1));
    assertThat(store.state()).isEqualTo("half_open");
    clock.advance(Duration.ofMillis(500));
    assertThat(store.state()).as("a second answered ping closes it").isEqualTo("closed");
    assertThat(store.available()).isTrue();
    assertThat(acquireFails()).isFalse();
  }

  @Test
  void backendDownAtStartup_startsOpen_andRecoversOnTheProbe() {
    backend.up = false;
    assertThat(store.checkAtStartup()).isFalse();
    store.start();
    assertThat(store.state()).isEqualTo("open");
    backend.up = true;
    clock.advance(Duration.ofMillis(500));
    assertThat(store.state()).isEqualTo("half_open");
    assertThat(acquireFails()).as("the trial call goes through").isFalse();
    assertThat(store.state()).isEqualTo("closed");
  }

  /** A real memory store that can be switched off, as a Redis outage. */
  private static final class Backend implements CounterStore {
    private final CounterStore store;
    volatile boolean up = true;

    Backend(CounterStore store) {
      this.store = store;
    }

    @Override
    public CompletableFuture<List<Usage>> acquire(List<Hit> hits) {
      return up ? store.acquire(hits) : CompletableFuture.failedFuture(down());
    }

    @Override
    public CompletableFuture<CounterState> inspect(Hit hit) {
      return store.inspect(hit);
    }

    @Override
    public CompletableFuture<CounterState> reset(Hit hit) {
      return store.reset(hit);
    }

    @Override
    public void ping() {
      if (!up) {
        throw down();
      }
    }

    private static StoreException down() {
      return new StoreException("backend down");
    }

    @Override
    public String kind() {
      return "fake";
    }

    @Override
    public void close() {
      store.close();
    }
  }
}
