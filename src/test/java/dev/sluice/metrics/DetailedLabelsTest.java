package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DetailedLabelsTest {
  private final DetailedLabels labels = new DetailedLabels(3, 5, 20_000);

  @Test
  void labelOf_shortPath_isThePathItself() {
    assertThat(DetailedLabels.labelOf("client_acme")).isEqualTo("client_acme");
    String atTheLimit = "client_" + "x".repeat(DetailedLabels.MAX_LABEL_BYTES - 7);
    assertThat(DetailedLabels.labelOf(atTheLimit)).isEqualTo(atTheLimit);
  }

  @Test
  void labelOf_longPath_isCutToAPrefixAndAStableHash() {
    String path = "client_" + "x".repeat(8_192);
    String label = DetailedLabels.labelOf(path);
    assertThat(label.getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(DetailedLabels.MAX_LABEL_BYTES);
    assertThat(label).startsWith("client_xxx").matches(".*\\.\\.\\.#[0-9a-f]{16}");
    assertThat(DetailedLabels.labelOf(path)).as("same on every call").isEqualTo(label);
    assertThat(DetailedLabels.labelOf(path + "y")).as("another value").isNotEqualTo(label);
  }

  @Test
  void labelOf_multiByteCharacters_areCountedInBytesAndNeverSplit() {
    String path = "city_" + "\u00e9".repeat(100) + "\ud83d\ude00".repeat(40);
    String label = DetailedLabels.labelOf(path);
    byte[] bytes = label.getBytes(StandardCharsets.UTF_8);
    assertThat(bytes.length).isLessThanOrEqualTo(DetailedLabels.MAX_LABEL_BYTES);
    assertThat(new String(bytes, StandardCharsets.UTF_8)).as("whole code points").isEqualTo(label);
    String fortyEmoji = "e_" + "\ud83d\ude00".repeat(40); // 162 bytes in 82 chars
    assertThat(DetailedLabels.labelOf(fortyEmoji)).isNotEqualTo(fortyEmoji);
  }

  @Test
  void labelOf_shortValueShapedLikeACutLabel_isCutToo() {
    String forged = DetailedLabels.labelOf("client_" + "x".repeat(500));
    assertThat(DetailedLabels.labelOf(forged)).isNotEqualTo(forged);
  }

  @Test
  void admit_beyondThePerRuleBound_isTheRulesOther() {
    for (int i = 0; i < 3; i++) {
      assertThat(labels.admit("api", "client", "client_" + i)).isEqualTo("client_" + i);
    }
    assertThat(labels.admit("api", "client", "client_3")).isEqualTo("client._other");
    assertThat(labels.admit("api", "client", "client_0"))
        .as("admitted before")
        .isEqualTo("client_0");
  }

  @Test
  void admit_beyondTheTotalBound_isTheRulesOther() {
    for (int i = 0; i < 3; i++) {
      labels.admit("api", "a", "a_" + i);
    }
    labels.admit("api", "b", "b_0");
    labels.admit("api", "b", "b_1");
    assertThat(labels.admit("api", "b", "b_2")).isEqualTo("b._other");
  }

  @Test
  void lookup_cutLabel_givesTheRuleAndTheWholeValue() {
    String path = "client_" + "x".repeat(1_000);
    String label = labels.admit("api", "client", path);
    assertThat(labels.lookup("api", label))
        .contains(new DetailedLabel("client", Optional.of(path)));
    assertThat(labels.lookup("other", label)).isEmpty();
    labels.admit("api", "client", "client_acme");
    assertThat(labels.lookup("api", "client_acme"))
        .contains(new DetailedLabel("client", Optional.of("client_acme")));
    assertThat(labels.lookup("api", "client_never")).isEmpty();
  }

  @Test
  void lookup_overTheKeptBudget_knowsTheLabelButNotTheValue() {
    DetailedLabels small = new DetailedLabels(10, 10, 1_500);
    String first = "client_" + "a".repeat(1_000);
    String second = "client_" + "b".repeat(1_000);
    small.admit("api", "client", first);
    String secondLabel = small.admit("api", "client", second);
    assertThat(small.lookup("api", secondLabel))
        .contains(new DetailedLabel("client", Optional.empty()));
  }

  @Test
  void retain_ruleNoLongerServed_forgetsItsLabelsAndFreesTheBounds() {
    String path = "client_" + "x".repeat(1_000);
    String label = labels.admit("api", "client", path);
    labels.admit("api", "client", "client_1");
    labels.admit("api", "client", "client_2");
    labels.retain(Map.of("api", Set.of("other")));
    assertThat(labels.lookup("api", label)).isEmpty();
    assertThat(labels.admit("api", "client", "client_3")).isEqualTo("client_3");
  }
}
