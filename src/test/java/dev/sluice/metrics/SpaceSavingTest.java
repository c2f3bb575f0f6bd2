package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpaceSavingTest {
  @Test
  void add_fewerKeysThanCapacity_countsExactly() {
    SpaceSaving<String> sketch = new SpaceSaving<>(4);
    sketch.add("a", 3);
    sketch.add("b", 1);
    sketch.add("a", 2);

    assertThat(sketch.all())
        .containsExactly(
            new SpaceSaving.Counted<>("a", 5, 0), new SpaceSaving.Counted<>("b", 1, 0));
  }

  @Test
  void add_manyDistinctKeys_memoryStaysAtCapacityAndHeavyHitterSurvives() {
    SpaceSaving<String> sketch = new SpaceSaving<>(8);
    for (int i = 0; i < 10_000; i++) {
      sketch.add("noise-" + i, 1);
      if (i % 4 == 0) {
        sketch.add("attacker", 1);
      }
    }

    List<SpaceSaving.Counted<String>> held = sketch.all();
    assertThat(sketch.size()).isEqualTo(8);
    assertThat(held.get(0).key()).isEqualTo("attacker");
    // The estimate never undercounts and overcounts by at most its error.
    assertThat(held.get(0).count()).isGreaterThanOrEqualTo(2_500);
    assertThat(held.get(0).count() - held.get(0).error()).isLessThanOrEqualTo(2_500);
  }

  @Test
  void add_evictsTheMinimum_andTheNewcomerInheritsItsCountAsError() {
    SpaceSaving<String> sketch = new SpaceSaving<>(2);
    sketch.add("a", 5);
    sketch.add("b", 2);
    sketch.add("c", 1);

    assertThat(sketch.all())
        .containsExactly(
            new SpaceSaving.Counted<>("a", 5, 0), new SpaceSaving.Counted<>("c", 3, 2));
  }
}
