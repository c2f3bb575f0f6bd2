package dev.sluice.rlqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.config.FailureMode;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleFlags;
import dev.sluice.rules.RuleKind;
import dev.sluice.rules.Unit;
import dev.sluice.testing.FakeClock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Shares with the other instances' demands from a board that answers or fails on command, on a fake
 * clock: the last shares are kept for one TTL, then the failure mode decides.
 */
class QuotasTest {
  private static final Duration TTL = Duration.ofSeconds(3);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final AtomicBoolean failing = new AtomicBoolean();
  private final QuotaBook book = new QuotaBook();
  private final BucketPlan.Divided plan =
      new BucketPlan.Divided(
          new Rule(
              "edge",
              "name_api",
              new RuleKind.Counted(Limit.of(100, Unit.SECOND, Algorithm.FIXED_WINDOW)),
              "",
              Set.of(),
              RuleFlags.NONE,
              "edge.yaml:1"),
          "edge.name_api|name=api",
          100,
          Optional.empty());

  /** Another instance has one client demanding 80/s. */
  private final DemandBoard board =
      new DemandBoard() {
        @Override
        public Map<String, double[]> exchange(
            Map<String, Map<String, Double>> local, Duration ttl) {
          if (failing.get()) {
            throw new IllegalStateException("redis down");
          }
          return Map.of(plan.group(), new double[] {80});
        }

        @Override
        public String kind() {
          return "test";
        }

        @Override
        public void close() {}
      };

  private Quotas quotas(FailureMode mode) {
    return new Quotas(
        book,
        board,
        new Quotas.Settings(mode, 2, TTL),
        clock,
        new SluiceMetrics(new PrometheusRegistry()).rlqs());
  }

  private double share(Quotas quotas) {
    return ((Assignment.Tokens) quotas.assign(plan, "c1", Optional.empty()).orElseThrow()).share();
  }

  private void demand(double perSecond) {
    book.report(plan.group(), "c1", (long) perSecond, 1000, clock.millis());
  }

  @Test
  void otherInstanceDemand_counted() {
    Quotas quotas = quotas(FailureMode.DENY);
    demand(80);

    quotas.exchange();

    assertThat(share(quotas)).isCloseTo(50, within(1e-9));
  }

  @Test
  void boardFails_lastSharesKeptForOneTtl_thenFailureModeDenies() {
    Quotas quotas = quotas(FailureMode.DENY);
    demand(80);
    quotas.exchange();
    failing.set(true);

    clock.advance(TTL);
    quotas.exchange();
    assertThat(share(quotas)).isCloseTo(50, within(1e-9));

    clock.advance(Duration.ofMillis(1));
    assertThat(quotas.assign(plan, "c1", Optional.empty())).contains(Assignment.DENY_ALL);
  }

  @Test
  void boardFailsPastTtl_errorSendsNothing_allowAllowsAll_localDividesByInstances() {
    demand(80);
    Quotas error = quotas(FailureMode.ERROR);
    Quotas allow = quotas(FailureMode.ALLOW);
    Quotas local = quotas(FailureMode.LOCAL);
    local.exchange();
    failing.set(true);
    clock.advance(TTL.plusMillis(1));

    assertThat(error.assign(plan, "c1", Optional.empty())).isEmpty();
    assertThat(allow.assign(plan, "c1", Optional.empty())).contains(Assignment.ALLOW_ALL);
    // 100 / --instances 2, all to c1: the other instance's client is no longer counted.
    assertThat(share(local)).isCloseTo(50, within(1e-9));
  }

  @Test
  void shareMovesLessThanFivePercent_sameAssignmentResent() {
    Quotas quotas = quotas(FailureMode.DENY);
    demand(30);
    book.others(plan.group(), new double[] {200});
    Optional<Assignment> first = quotas.assign(plan, "c1", Optional.empty());
    book.report(plan.group(), "c1", 31, 1000, clock.millis());

    Optional<Assignment> second = quotas.assign(plan, "c1", first);

    assertThat(second).isSameAs(first);
  }
}
