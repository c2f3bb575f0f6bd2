package dev.sluice.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.resolver.Resolver;

/** The shortcut must resolve every plain scalar exactly as SnakeYAML's own resolver does. */
class QuickResolverTest {
  private final Resolver reference = new Resolver();
  private final QuickResolver quick = new QuickResolver();

  @Test
  void resolve_wordsNumbersAndEdgeCases_sameTagAsSnakeYaml() {
    List<String> values =
        new ArrayList<>(
            List.of(
                "",
                " ",
                "~",
                "null",
                "Null",
                "NULL",
                "yes",
                "Yes",
                "no",
                "NO",
                "true",
                "True",
                "false",
                "on",
                "off",
                "y",
                "n",
                "t",
                "o",
                "tenant",
                "t123",
                "minute",
                "on_call",
                "nullable",
                "truest",
                "0",
                "00",
                "01",
                "07",
                "08",
                "089",
                "1",
                "100",
                "1_000",
                "1e3",
                "1.5",
                "-1",
                "+1",
                "0x1f",
                "0b101",
                "1:30",
                "2001-12-14",
                ".inf",
                ".nan",
                "<<",
                "=",
                "!",
                "&",
                "*",
                "user-1",
                "w1-*",
                "a*",
                "Tenant",
                "_x",
                "x y"));
    Random random = new Random(16);
    String alphabet = "abcnotyfurel0123456789_-.:+eEx ";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder value = new StringBuilder();
      for (int n = random.nextInt(7); n >= 0; n--) {
        value.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      values.add(value.toString());
    }

    for (String value : values) {
      assertThat(quick.resolve(NodeId.scalar, value, true))
          .as("'%s'", value)
          .isEqualTo(reference.resolve(NodeId.scalar, value, true));
    }
  }
}
