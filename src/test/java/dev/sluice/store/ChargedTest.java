package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The two shapes of a store's answer, and what a decorator does with each. */
class ChargedTest {
  private static final Usage FIRST = new Usage(false, 4, 1_000_000, 1);
  private static final Usage SECOND = new Usage(true, 0, 2_000_000, 6);

  @Test
  void map_now_appliedAtOnceAndStillNow() {
    Charged mapped = new Charged.Now(List.of(FIRST)).map(usages -> List.of(SECOND));

    assertThat(mapped).isEqualTo(new Charged.Now(List.of(SECOND)));
  }

  @Test
  void map_later_appliedWhenTheFutureCompletes() {
    CompletableFuture<List<Usage>> pending = new CompletableFuture<>();

    Charged mapped = new Charged.Later(pending).map(usages -> List.of(SECOND));

    assertThat(mapped).isInstanceOf(Charged.Later.class);
    assertThat(mapped.future()).isNotDone();
    pending.complete(List.of(FIRST));
    assertThat(mapped.future().join()).containsExactly(SECOND);
  }

  @Test
  void whenDone_now_runsAtOnceWithTheUsagesAndAnswersItself() {
    List<Object> seen = new ArrayList<>();
    Charged now = new Charged.Now(List.of(FIRST));

    Charged passed = now.whenDone((usages, failure) -> seen.add(usages));

    assertThat(passed).isSameAs(now);
    assertThat(seen).containsExactly(List.of(FIRST));
  }

  @Test
  void whenDone_laterPending_runsOnCompletionBeforeTheAnswerCompletes() {
    CompletableFuture<List<Usage>> pending = new CompletableFuture<>();
    List<Object> seen = new ArrayList<>();

    Charged passed = new Charged.Later(pending).whenDone((usages, failure) -> seen.add(usages));

    assertThat(seen).isEmpty();
    pending.complete(List.of(FIRST));
    assertThat(passed.future().join()).containsExactly(FIRST);
    assertThat(seen).containsExactly(List.of(FIRST));
  }

  @Test
  void whenDone_laterAlreadyFailed_runsAtOnceWithTheFailure() {
    StoreException down = new StoreException("down");
    List<Throwable> seen = new ArrayList<>();
    Charged failed = Charged.failed(down);

    Charged passed = failed.whenDone((usages, failure) -> seen.add(failure));

    assertThat(passed).isSameAs(failed);
    assertThat(seen).hasSize(1);
    assertThat(seen.get(0)).isInstanceOf(CompletionException.class).hasCause(down);
  }

  @Test
  void combine_bothNow_isNow() {
    Charged both =
        Charged.combine(
            new Charged.Now(List.of(FIRST)), new Charged.Now(List.of(SECOND)), ChargedTest::concat);

    assertThat(both).isEqualTo(new Charged.Now(List.of(FIRST, SECOND)));
  }

  @Test
  void combine_oneLater_isLaterAndMergesOnceBothAnswered() {
    CompletableFuture<List<Usage>> pending = new CompletableFuture<>();

    Charged both =
        Charged.combine(
            new Charged.Now(List.of(FIRST)), new Charged.Later(pending), ChargedTest::concat);

    assertThat(both).isInstanceOf(Charged.Later.class);
    assertThat(both.future()).isNotDone();
    pending.complete(List.of(SECOND));
    assertThat(both.future().join()).containsExactly(FIRST, SECOND);
  }

  @Test
  void combine_oneFailed_fails() {
    Charged both =
        Charged.combine(
            new Charged.Now(List.of(FIRST)),
            Charged.failed(new StoreException("down")),
            ChargedTest::concat);

    assertThat(both.future()).isCompletedExceptionally();
  }

  private static List<Usage> concat(List<Usage> a, List<Usage> b) {
    List<Usage> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
