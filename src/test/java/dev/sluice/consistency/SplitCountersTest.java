package dev.sluice.consistency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Split counting on the fake clock, instances heartbeating into one shared memory store. */
class SplitCountersTest {
  private static final Limit LIMIT =
      Limit.of(12, Unit.HOUR, Algorithm.FIXED_WINDOW).withConsistency(Consistency.SPLIT);

  private final FakeClock clock = new FakeClock(Instant.ofEpochSecond(1_700_002_800L));
  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
  private final SharedStore shared = new SharedStore(new InMemoryCounterStore(clock, clock));

  private SplitCounters instance(Optional<SharedStore> fleet, int instances) {
    return new SplitCounters(
        new InMemoryCounterStore(clock, clock),
        fleet.map(s -> s),
        instances,
        clock,
        Duration.ofSeconds(1),
        metrics.consistency(),
        () -> true);
  }

  private static long allowed(SplitCounters on, int requests) {
    long allowed = 0;
    for (int i = 0; i < requests; i++) {
      Usage usage = on.acquire(List.of(new Hit("fw|3600|api", LIMIT, 1))).join().get(0);
      allowed += usage.overLimit() ? 0 : 1;
    }
    return allowed;
  }

  @Test
  void withoutAFleet_splitsByTheConfiguredInstances() {
    SplitCounters alone = instance(Optional.empty(), 3);

    assertThat(allowed(alone, 10)).isEqualTo(4);
    assertThat(alone.instances()).isEqualTo(3);
    assertThat(clock.pendingTasks()).as("no heartbeat without a fleet").isZero();
  }

  @Test
  void heartbeat_countsTheLiveInstances_andReSplitsWhenOneStops() {
    SplitCounters a = instance(Optional.of(shared), 1).start();
    SplitCounters b = instance(Optional.of(shared), 1).start();
    SplitCounters c = instance(Optional.of(shared), 1).start();
    clock.runDueTasks();
    clock.advance(SplitCounters.HEARTBEAT);
    assertThat(List.of(a.instances(), b.instances(), c.instances())).containsOnly(3);
    assertThat(allowed(a, 4)).as("share 12 / 3").isEqualTo(4);
    assertThat(allowed(b, 5)).isEqualTo(4);

    c.close();
    clock.advance(SplitCounters.MARK_TTL.plus(SplitCounters.HEARTBEAT));

    assertThat(a.instances()).isEqualTo(2);
    assertThat(b.instances()).isEqualTo(2);
    assertThat(allowed(a, 10)).as("4 taken already, share now 6").isEqualTo(2);
    a.close();
    b.close();
  }

  @Test
  void noSplitRuleServed_sendsNoHeartbeat() {
    SplitCounters idle =
        new SplitCounters(
                new InMemoryCounterStore(clock, clock),
                Optional.of(shared),
                3,
                clock,
                Duration.ofSeconds(1),
                metrics.consistency(),
                () -> false)
            .start();
    clock.advance(SplitCounters.HEARTBEAT.multipliedBy(3));

    assertThat(shared.store.heartbeat("probe", SplitCounters.MARK_TTL).join())
        .as("only the probe's own mark")
        .isEqualTo(1);
    assertThat(idle.instances()).isEqualTo(3);
    idle.close();
  }

  @Test
  void heartbeatFailing_keepsTheLastCount() {
    SplitCounters a = instance(Optional.of(shared), 5).start();
    SplitCounters b = instance(Optional.of(shared), 5).start();
    clock.advance(SplitCounters.HEARTBEAT);
    assertThat(a.instances()).isEqualTo(2);

    shared.up = false;
    clock.advance(SplitCounters.MARK_TTL.multipliedBy(2));

    assertThat(a.instances()).isEqualTo(2);
    a.close();
    b.close();
  }
}
