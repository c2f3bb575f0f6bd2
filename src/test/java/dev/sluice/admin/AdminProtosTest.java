package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.admin.v1.InspectCounterResponse;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleFlags;
import dev.sluice.rules.RuleKind;
import dev.sluice.rules.Unit;
import dev.sluice.store.CounterState;
import dev.sluice.store.LocalView;
import dev.sluice.store.algorithm.FixedWindow;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The admin rendering of a rule's consistency and of a counter's local view. */
class AdminProtosTest {
  private static Rule rule(Consistency consistency) {
    Limit limit = Limit.of(10, Unit.MINUTE, Algorithm.FIXED_WINDOW).withConsistency(consistency);
    return new Rule(
        "api", "user", new RuleKind.Counted(limit), "", Set.of(), RuleFlags.NONE, "r.yaml:3");
  }

  @Test
  void rule_showsItsConsistency() {
    assertThat(AdminProtos.rule(rule(Consistency.SYNCED)).getConsistency()).isEqualTo("synced");
    assertThat(AdminProtos.rule(rule(Consistency.EXACT)).getConsistency()).isEqualTo("exact");
  }

  @Test
  void inspected_syncedCounter_showsKnownGlobalAndUnsynced() {
    CounterState state =
        new CounterState(
                "fw|60|api|user=a|7", true, FixedWindow.usage(8, 10, Duration.ofSeconds(5)))
            .withLocal(new LocalView(Consistency.SYNCED, 6, 2, 0));

    InspectCounterResponse shown =
        AdminProtos.inspected(Optional.of(new CounterAdmin.Found(rule(Consistency.SYNCED), state)));

    assertThat(shown.getCount()).isEqualTo(8);
    assertThat(shown.getConsistency()).isEqualTo("synced");
    assertThat(shown.getKnownGlobal()).isEqualTo(6);
    assertThat(shown.getUnsynced()).isEqualTo(2);
    assertThat(shown.getSplitInstances()).isZero();
  }

  @Test
  void inspected_exactCounter_leavesTheLocalFieldsUnset() {
    CounterState state =
        new CounterState(
            "fw|60|api|user=a|7", true, FixedWindow.usage(8, 10, Duration.ofSeconds(5)));

    InspectCounterResponse shown =
        AdminProtos.inspected(Optional.of(new CounterAdmin.Found(rule(Consistency.EXACT), state)));

    assertThat(shown.getConsistency()).isEmpty();
    assertThat(shown.getKnownGlobal()).isZero();
  }
}
