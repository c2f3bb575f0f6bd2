package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class KeyModeTest {

  @Test
  void parse_theThreeForms() {
    assertThat(KeyMode.parse("hot")).isEqualTo(KeyMode.hot());
    assertThat(KeyMode.parse("RANDOM")).isEqualTo(KeyMode.random());
    assertThat(KeyMode.parse("3")).isEqualTo(KeyMode.roundRobin(3));
  }

  @Test
  void parse_invalid_namesTheValue() {
    assertThatThrownBy(() -> KeyMode.parse("0")).hasMessageContaining("'0'");
    assertThatThrownBy(() -> KeyMode.parse("warm")).hasMessageContaining("'warm'");
  }

  @Test
  void source_roundRobin_cyclesThroughTheValues() {
    KeyMode.Source source = KeyMode.roundRobin(3).source();

    assertThat(IntStream.range(0, 7).mapToObj(i -> source.next()))
        .containsExactly("0", "1", "2", "0", "1", "2", "0");
  }

  @Test
  void source_hotAndRandom() {
    KeyMode.Source hot = KeyMode.hot().source();
    KeyMode.Source random = KeyMode.random().source();
    Set<String> randomValues = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      assertThat(hot.next()).isEqualTo(KeyMode.HOT_VALUE);
      randomValues.add(random.next());
    }
    assertThat(randomValues).hasSizeGreaterThan(990);
  }

  @Test
  void toString_isWhatParseReads() {
    for (String text : new String[] {"hot", "random", "12"}) {
      assertThat(KeyMode.parse(text).toString()).isEqualTo(text);
    }
  }
}
