package dev.sluice.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Charge;
import dev.sluice.store.Charged;
import dev.sluice.store.CounterStore;
import dev.sluice.store.Hit;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.LaterStore;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store span ends when the store's answer is known, in whichever shape it comes: at once for
 * one made on the calling thread, when the future completes for one that comes later.
 */
class TracedCounterStoreTest {
  private static final Hit HIT =
      new Hit("fw|traced", Limit.of(10, Unit.MINUTE, Algorithm.FIXED_WINDOW), 1);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final List<SpanData> ended = new CopyOnWriteArrayList<>();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(new Ended()).build();

  @AfterEach
  void close() {
    provider.close();
  }

  private CounterStore traced(CounterStore store) {
    return new TracedCounterStore(store, provider.get("test"));
  }

  @Test
  void charge_storeAnswersNow_passedOnNowWithItsSpanEnded() {
    Charged answer = traced(new InMemoryCounterStore(clock, clock)).charge(Charge.Group.each(HIT));

    assertThat(answer).isInstanceOf(Charged.Now.class);
    assertThat(ended).hasSize(1);
    assertThat(ended.get(0).getName()).isEqualTo("store acquire");
    assertThat(ended.get(0).getAttributes().get(SpanAttributes.HITS)).isEqualTo(1L);
  }

  @Test
  void charge_storeAnswersLater_spanEndsWhenTheAnswerComes() {
    LaterStore later = new LaterStore(new InMemoryCounterStore(clock, clock));

    Charged answer = traced(later).charge(Charge.Group.each(HIT));

    assertThat(answer).isInstanceOf(Charged.Later.class);
    assertThat(ended).isEmpty();
    later.answerAll();
    assertThat(answer.future().join()).hasSize(1);
    assertThat(ended).hasSize(1);
    assertThat(ended.get(0).getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
  }

  /** Collects every span as it ends. */
  private final class Ended implements SpanProcessor {
    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {}

    @Override
    public boolean isStartRequired() {
      return false;
    }

    @Override
    public void onEnd(ReadableSpan span) {
      ended.add(span.toSpanData());
    }

    @Override
    public boolean isEndRequired() {
      return true;
    }
  }
}
