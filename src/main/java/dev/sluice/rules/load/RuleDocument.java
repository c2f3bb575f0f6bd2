package dev.sluice.rules.load;

import java.nio.file.Path;
import java.util.Objects;
import org.yaml.snakeyaml.nodes.Node;

/**
 * One rule file's content built in memory instead of parsed from text: the SnakeYAML node tree a
 * rule file would compose to (nodes without marks, so problems carry line 0). Rules pushed by a
 * control plane are turned into this form so that {@link RuleLoader#load(java.util.List, String)}
 * validates them with the very checks, and messages, of rule files.
 *
 * @param name what problems and descriptor origins call the document, e.g. {@code xds:edge}
 * @param root the top-level map ({@code domain}, {@code descriptors})
 */
public record RuleDocument(String name, Node root) {
  public RuleDocument {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(root, "root");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a rule document needs a name");
    }
  }

  /** The name as the path of a {@link RuleProblem}. */
  Path path() {
    return Path.of(name);
  }
}
