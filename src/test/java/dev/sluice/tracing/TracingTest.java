package dev.sluice.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.limiter.Code;
import dev.sluice.limiter.Decision;
import dev.sluice.store.CounterStore;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import io.grpc.ServerServiceDefinition;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tracing off is a null object: nothing is wrapped, nothing is recorded. */
class TracingTest {

  @Test
  void off_wrapsNothing() {
    ServerServiceDefinition service = ServerServiceDefinition.builder("test.Service").build();
    FakeClock clock = FakeClock.atEpochSecond(0);
    CounterStore store = new InMemoryCounterStore(clock, clock);

    assertThat(Tracing.off().intercept(service)).isSameAs(service);
    assertThat(Tracing.off().store(store)).isSameAs(store);
  }

  @Test
  void off_decisionSpan_isOneConstantThatChangesNoContext() {
    DecisionSpan span = Tracing.off().startDecision("edge", 3);
    Context before = Context.current();

    try (Scope scope = span.activate()) {
      assertThat(Context.current()).isSameAs(before);
    }
    span.decided(new Decision(Code.OK, List.of()));

    assertThat(Tracing.off().startDecision("other", 1)).isSameAs(span);
  }
}
