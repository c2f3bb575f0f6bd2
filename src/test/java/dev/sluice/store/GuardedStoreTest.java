package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BreakerConfig;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.LaterStore;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
          new BreakerConfig(50, 3, Duration.ofSeconds(10), Duration.ofMillis(500)),
          new SluiceMetrics(new PrometheusRegistry()),
          clock);

  private final PrometheusRegistry registry = new PrometheusRegistry();

  /** The defaults: at least 50 % of at least 20 calls in 10 s. */
  private final GuardedStore defaults =
      new GuardedStore(backend, BreakerConfig.defaults(), new SluiceMetrics(registry), clock);

  @AfterEach
  void close() {
    store.close();
    defaults.close();
  }

  private int calls(GuardedStore guarded, int n, StoreException failure) {
    backend.failure = failure;
    int failed = 0;
    for (int i = 0; i < n; i++) {
      failed += guarded.acquire(HITS).isCompletedExceptionally() ? 1 : 0;
    }
    backend.failure = null;
    return failed;
  }

  private static StoreException timeout() {
    return new StoreException("redis at x: pipeline of 3 requests failed: Read timed out");
  }

  /** Issue 11.12: five slow replies in a row opened the old breaker for everyone. */
  @Test
  void slowRepliesAmongGoodOnes_keepTheBreakerClosed() {
    for (int round = 0; round < 10; round++) {
      calls(defaults, 30, null);
      assertThat(calls(defaults, 10, timeout())).isEqualTo(10);
      clock.advance(Duration.ofMillis(700));
    }
    assertThat(defaults.state()).as("25 %% of calls failed, in bursts of 10").isEqualTo("closed");
    assertThat(calls(defaults, 5, null)).isZero();
  }

  @Test
  void failureRate_opensOnlyOnceTheWindowHoldsTheMinimumOfCalls() {
    calls(defaults, 19, timeout());
    assertThat(defaults.state()).as("19 calls: too few to judge").isEqualTo("closed");
    calls(defaults, 1, timeout());
    assertThat(defaults.state()).isEqualTo("open");
    assertThat(calls(defaults, 3, null)).as("open: answered without the backend").isEqualTo(3);
  }

  @Test
  void failureRate_halfAndHalf_opens_butOldFailuresLeaveTheWindow() {
    calls(defaults, 15, timeout());
    clock.advance(Duration.ofSeconds(11));
    calls(defaults, 12, null);
    calls(defaults, 8, timeout());
    assertThat(defaults.state()).as("8 of 20 in the window failed").isEqualTo("closed");
    calls(defaults, 4, timeout());
    assertThat(defaults.state()).as("12 of 24 in the window failed").isEqualTo("open");
  }

  @Test
  void unreachableStore_opensAtOnce() {
    calls(defaults, 50, null);
    calls(defaults, 1, new StoreUnreachableException("redis at x: cannot connect: refused", null));
    assertThat(defaults.state()).isEqualTo("open");
    assertThat(defaults.lastError()).contains("cannot connect");
  }

  @Test
  void shedRequests_neverCountTowardsTheBreaker_andAreCounted() {
    int shed = calls(defaults, 100, new StoreShedException("shed: store queue full: 1024 hits"));
    assertThat(shed).isEqualTo(100);
    assertThat(defaults.state()).isEqualTo("closed");
    assertThat(registry.scrape().stream())
        .anySatisfy(
            metric -> {
              assertThat(metric.getMetadata().getPrometheusName()).isEqualTo("sluice_store_shed");
              assertThat(metric.getDataPoints()).hasSize(1);
            });
    assertThat(shedCount()).isEqualTo(100.0);
  }

  private double shedCount() {
    return registry.scrape().stream()
        .filter(m -> m.getMetadata().getPrometheusName().equals("sluice_store_shed"))
        .map(m -> (io.prometheus.metrics.model.snapshots.CounterSnapshot) m)
        .flatMap(m -> m.getDataPoints().stream())
        .mapToDouble(
            io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot
                ::getValue)
        .sum();
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

  /**
   * Transitions are read off the breaker's state, not from Resilience4j's events: each one is
   * counted once and the state gauge follows, whichever call made it (a failed call, the probe, the
   * trial call).
   */
  @Test
  void transitions_eachCountedOnce_andTheGaugeFollows() throws IOException {
    SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
    try (GuardedStore guarded =
        new GuardedStore(
            backend,
            new BreakerConfig(50, 3, Duration.ofSeconds(10), Duration.ofMillis(500)),
            metrics,
            clock)) {
      guarded.start();
      backend.up = false;
      for (int i = 0; i < 5; i++) {
        guarded.acquire(HITS);
      }
      assertThat(scrape(metrics))
          .contains("sluice_circuit_breaker_transitions_total{store=\"fake\",to=\"open\"} 1.0")
          .contains("sluice_circuit_breaker_state{state=\"open\",store=\"fake\"} 1.0");
      backend.up = true;
      clock.advance(Duration.ofMillis(500));
      assertThat(scrape(metrics))
          .contains("sluice_circuit_breaker_state{state=\"half_open\",store=\"fake\"} 1.0");
      assertThat(guarded.acquire(HITS).isCompletedExceptionally()).isFalse();
      for (int i = 0; i < 5; i++) {
        guarded.acquire(HITS);
      }
      assertThat(scrape(metrics))
          .contains("sluice_circuit_breaker_transitions_total{store=\"fake\",to=\"open\"} 1.0")
          .contains("sluice_circuit_breaker_transitions_total{store=\"fake\",to=\"half_open\"} 1.0")
          .contains("sluice_circuit_breaker_transitions_total{store=\"fake\",to=\"closed\"} 1.0")
          .contains("sluice_circuit_breaker_state{state=\"closed\",store=\"fake\"} 1.0");
    }
  }

  /**
   * An answer made on the calling thread ({@link Charged.Now}, the memory store) is accounted
   * exactly as one that comes later (a network store): the same calls through each end in the same
   * breaker state with the same store-call, error, shed and transition series (latencies aside).
   */
  @Test
  void charge_answeredNowOrLater_sameBreakerStateAndMetrics() throws IOException {
    SluiceMetrics viaLater = new SluiceMetrics(new PrometheusRegistry());
    SluiceMetrics viaNow = new SluiceMetrics(new PrometheusRegistry());
    LaterStore laterBackend = new LaterStore(backend);
    try (GuardedStore later =
            new GuardedStore(laterBackend, BreakerConfig.defaults(), viaLater, clock);
        GuardedStore now = new GuardedStore(backend, BreakerConfig.defaults(), viaNow, clock)) {
      StoreException[] phases = {
        null, new StoreShedException("shed: store queue full: 1 hits"), timeout(), null
      };
      for (StoreException failure : phases) {
        backend.failure = failure;
        for (int i = 0; i < 25; i++) {
          Charged laterAnswer = later.charge(Charge.independent(HITS));
          laterBackend.answerAll();
          Charged nowAnswer = now.charge(Charge.independent(HITS));
          assertThat(nowAnswer.future().isCompletedExceptionally())
              .isEqualTo(laterAnswer.future().isCompletedExceptionally());
          assertThat(now.state()).isEqualTo(later.state());
        }
      }
      backend.failure = null;
      assertThat(now.state()).isEqualTo("open");
      assertThat(withoutLatencies(scrape(viaNow))).isEqualTo(withoutLatencies(scrape(viaLater)));
    }
  }

  @Test
  void charge_memoryBackend_answeredNowAndRecorded() throws IOException {
    SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
    try (GuardedStore guarded =
        new GuardedStore(backend, BreakerConfig.defaults(), metrics, clock)) {
      Charged answer = guarded.charge(Charge.independent(HITS));

      assertThat(answer).isInstanceOf(Charged.Now.class);
      assertThat(scrape(metrics)).contains("sluice_store_duration_seconds_count{store=\"fake\"} 1");
    }
  }

  /** Sluice's own series, without the latencies, which differ from call to call. */
  private static String withoutLatencies(String text) {
    return text.lines()
        .filter(line -> line.startsWith("sluice_"))
        .filter(line -> !line.startsWith("sluice_store_duration_seconds_bucket"))
        .filter(line -> !line.startsWith("sluice_store_duration_seconds_sum"))
        .collect(java.util.stream.Collectors.joining("\n"));
  }

  private static String scrape(SluiceMetrics metrics) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.writeText(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** A real memory store that can be switched off, as a Redis outage. */
  private static final class Backend implements CounterStore {
    private final CounterStore store;
    volatile boolean up = true;
    volatile StoreException failure;

    Backend(CounterStore store) {
      this.store = store;
    }

    @Override
    public Charged charge(Charge charge) {
      if (failure != null) {
        return Charged.failed(failure);
      }
      return up ? store.charge(charge) : Charged.failed(down());
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
