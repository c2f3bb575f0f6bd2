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
import dev.sluice.rules.Window;
import dev.sluice.store.CounterState;
import dev.sluice.store.LocalView;
import dev.sluice.store.algorithm.FixedWindow;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The admin rendering of a rule's consistency and window, and of a counter's local view. */
class AdminProtosTest {
  private static Rule rule(Consistency consistency) {
    return rule(Limit.of(10, Unit.MINUTE, Algorithm.FIXED_WINDOW).withConsistency(consistency));
  }

  private static Rule rule(Limit limit) {
    return new Rule(
        "api", "user", new RuleKind.Counted(limit), "", Set.of(), RuleFlags.NONE, "r.yaml:3");
  }

  @Test
  void rule_showsItsConsistency() {
    assertThat(AdminProtos.rule(rule(Consistency.SYNCED)).getConsistency()).isEqualTo("synced");
    assertThat(AdminProtos.rule(rule(Consistency.EXACT)).getConsistency()).isEqualTo("exact");
  }

  @Test
  void rule_showsItsWindow() {
    dev.sluice.admin.v1.Rule plain = AdminProtos.rule(rule(Consistency.EXACT));
    assertThat(plain.getWindow()).isEqualTo("minute");
    assertThat(plain.getUnitMultiplier()).isEqualTo(1);
    assertThat(plain.getTimeZone()).isEmpty();

    Limit quarter =
        new Limit(
            10, new Window.Fixed(Unit.MINUTE, 15), Algorithm.FIXED_WINDOW, 10, Consistency.EXACT);
    dev.sluice.admin.v1.Rule shown = AdminProtos.rule(rule(quarter));
    assertThat(shown.getUnit()).isEqualTo("minute");
    assertThat(shown.getUnitMultiplier()).isEqualTo(15);
    assertThat(shown.getWindow()).isEqualTo("15 minutes");

    Limit month =
        new Limit(
            3,
            new Window.Calendar(Unit.MONTH, ZoneId.of("Europe/Berlin")),
            Algorithm.FIXED_WINDOW,
            3,
            Consistency.EXACT);
    dev.sluice.admin.v1.Rule calendar = AdminProtos.rule(rule(month));
    assertThat(calendar.getUnit()).isEqualTo("month");
    assertThat(calendar.getTimeZone()).isEqualTo("Europe/Berlin");
    assertThat(calendar.getWindow()).isEqualTo("calendar month in Europe/Berlin");
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
