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
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every decorator of the store package passes the store's answer on in its shape: an answer made on
 * the calling thread stays {@link Charged.Now} through it (no future), and one that comes later
 * stays {@link Charged.Later} until the store answers. The consistency router and the traced store
 * are covered beside their packages.
 */
class StoreDecoratorsTest {
  private static final Limit MINUTE = Limit.of(10, Unit.MINUTE, Algorithm.FIXED_WINDOW);
  private static final Limit SECOND = Limit.of(3, Unit.SECOND, Algorithm.TOKEN_BUCKET);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);

  static Stream<Arguments> decorators() {
    return Stream.of(
        Arguments.of("named", (Wrap) (store, clock) -> new NamedStore(store, "renamed")),
        Arguments.of(
            "guarded",
            (Wrap)
                (store, clock) ->
                    new GuardedStore(
                        store,
                        BreakerConfig.defaults(),
                        new SluiceMetrics(new PrometheusRegistry()),
                        clock)),
        Arguments.of("split by unit", (Wrap) (store, clock) -> new UnitSplitStore(store, store)));
  }

  /** Wraps a store in one decorator; the clock drives a breaker's window. */
  interface Wrap {
    CounterStore around(CounterStore store, FakeClock clock);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("decorators")
  void charge_storeAnswersNow_passedOnNow(String name, Wrap wrap) {
    CounterStore decorated = wrap.around(new InMemoryCounterStore(clock, clock), clock);

    for (Charge charge : charges("now")) {
      Charged answer = decorated.charge(charge);

      assertThat(answer).as("%s", charge).isInstanceOf(Charged.Now.class);
      assertThat(answer.future().join()).hasSize(charge.hitCount());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("decorators")
  void charge_storeAnswersLater_passedOnLaterWithItsUsages(String name, Wrap wrap) {
    LaterStore later = new LaterStore(new InMemoryCounterStore(clock, clock));
    CounterStore decorated = wrap.around(later, clock);

    for (Charge charge : charges("later")) {
      Charged answer = decorated.charge(charge);

      assertThat(answer).as("%s", charge).isInstanceOf(Charged.Later.class);
      assertThat(answer.future()).isNotDone();
      later.answerAll();
      assertThat(answer.future().join())
          .extracting(Usage::remaining)
          .as("%s", charge)
          .containsExactlyElementsOf(
              charge.hits().stream().map(hit -> hit.limit().capacity() - 1).toList());
    }
  }

  /** The usual request's charge (one group), and one of a minute and a second limit. */
  private static List<Charge> charges(String name) {
    Hit minute = new Hit("fw|" + name + "|m", MINUTE, 1);
    Hit second = new Hit("tb|" + name + "|s", SECOND, 1);
    return List.of(
        Charge.Group.each(minute),
        Charge.independent(List.of(new Hit("fw|" + name + "|m2", MINUTE, 1), second)));
  }
}
