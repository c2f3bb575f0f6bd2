package dev.sluice.rules.load;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Typed access to the YAML nodes of one rule file, recording a {@link RuleProblem} with the node's
 * line for every value of the wrong shape. Readers never throw: a bad value is reported and read as
 * absent, so one pass finds every problem. Not thread-safe; one instance per file.
 */
final class NodeReader {
  private static final Pattern DECIMAL = Pattern.compile("0|[1-9][0-9]*");
  private static final Pattern NEGATIVE = Pattern.compile("-[0-9]+");
  // YAML 1.1 booleans, as the reference's yaml.v2 reads them.
  private static final Set<String> TRUE = Set.of("true", "yes", "on");
  private static final Set<String> FALSE = Set.of("false", "no", "off");
  private static final BigInteger MAX_UINT32 = BigInteger.valueOf(0xFFFF_FFFFL);

  private final Path file;
  private final List<RuleProblem> problems = new ArrayList<>();

  NodeReader(Path file) {
    this.file = file;
  }

  void report(Node node, String message) {
    report(line(node), message);
  }

  void report(int line, String message) {
    problems.add(new RuleProblem(file, line, message));
  }

  List<RuleProblem> problems() {
    return List.copyOf(problems);
  }

  int problemCount() {
    return problems.size();
  }

  /** 1-based line where the node starts. */
  static int line(Node node) {
    return node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
  }

  /** True for an explicit or implicit YAML null, e.g. {@code rate_limit:} with nothing after it. */
  static boolean isNull(Node node) {
    return node instanceof ScalarNode && Tag.NULL.equals(node.getTag());
  }

  /**
   * How a node appears in messages: {@code 'text'}, {@code nothing}, {@code a list}, {@code a map}.
   */
  static String describe(Node node) {
    if (isNull(node)) {
      return "nothing";
    }
    if (node instanceof ScalarNode scalar) {
      return (scalar.isPlain() ? "'" : "the quoted text '") + scalar.getValue() + "'";
    }
    return node instanceof SequenceNode ? "a list" : "a map";
  }

  /**
   * The fields of a map in {@code place}. Fields {@code place} does not allow, and repeated fields,
   * are reported and left out. YAML merge keys ({@code <<: *anchor}) are applied: fields written in
   * the map win over merged ones.
   *
   * @return empty (after reporting) when the node is not a map
   */
  Optional<Fields> fields(Node node, Place place) {
    if (!(node instanceof MappingNode map)) {
      report(node, place.noun() + " must be a map, found " + describe(node));
      return Optional.empty();
    }
    Map<String, NodeTuple> byName = new LinkedHashMap<>();
    collect(map, place, byName, false);
    return Optional.of(new Fields(map, byName));
  }

  private void collect(MappingNode map, Place place, Map<String, NodeTuple> out, boolean merged) {
    List<Node> merges = new ArrayList<>();
    for (NodeTuple tuple : map.getValue()) {
      Node keyNode = tuple.getKeyNode();
      if (Tag.MERGE.equals(keyNode.getTag())) {
        merges.add(tuple.getValueNode());
      } else if (!(keyNode instanceof ScalarNode scalar)) {
        report(keyNode, "field names must be text, found " + describe(keyNode));
      } else if (!place.allows(scalar.getValue())) {
        report(keyNode, place.rejection(scalar.getValue()));
      } else if (merged) {
        out.putIfAbsent(scalar.getValue(), tuple);
      } else {
        NodeTuple first = out.putIfAbsent(scalar.getValue(), tuple);
        if (first != null) {
          String where = "first at line " + line(first.getKeyNode());
          report(keyNode, "duplicate field '" + scalar.getValue() + "' (" + where + ")");
        }
      }
    }
    for (Node merge : merges) {
      List<Node> sources = merge instanceof SequenceNode seq ? seq.getValue() : List.of(merge);
      for (Node source : sources) {
        if (source instanceof MappingNode sourceMap) {
          collect(sourceMap, place, out, true);
        } else {
          report(source, "'<<' must merge a map or a list of maps, found " + describe(source));
        }
      }
    }
  }

  /** A text field; YAML scalars of any type are read as written. Empty when absent or null. */
  Optional<String> text(Fields fields, String name) {
    Optional<Node> node = fields.get(name).filter(n -> !isNull(n));
    if (node.isPresent() && !(node.get() instanceof ScalarNode)) {
      report(node.get(), name + " must be text, found " + describe(node.get()));
      return Optional.empty();
    }
    return node.map(n -> ((ScalarNode) n).getValue());
  }

  /** A YAML 1.1 true ({@code true}, {@code yes}, {@code on}, any case). */
  static boolean isTrue(String text) {
    return TRUE.contains(text.toLowerCase(Locale.ROOT));
  }

  /** A boolean field; {@code false} when absent. */
  boolean flag(Fields fields, String name) {
    Optional<Node> node = fields.get(name);
    if (node.isEmpty()) {
      return false;
    }
    String value =
        Tag.BOOL.equals(node.get().getTag()) && node.get() instanceof ScalarNode scalar
            ? scalar.getValue().toLowerCase(Locale.ROOT)
            : "";
    if (!TRUE.contains(value) && !FALSE.contains(value)) {
      report(node.get(), name + " must be true or false, found " + describe(node.get()));
    }
    return TRUE.contains(value);
  }

  /**
   * A whole number 0..4294967295 (Envoy's uint32), written in plain decimal.
   *
   * @return empty when absent, or (after reporting) when not such a number
   */
  OptionalLong uint32(Fields fields, String name) {
    Optional<Node> node = fields.get(name);
    if (node.isEmpty()) {
      return OptionalLong.empty();
    }
    Optional<String> problem = uint32Problem(node.get());
    if (problem.isPresent()) {
      report(node.get(), name + " " + problem.get());
      return OptionalLong.empty();
    }
    return OptionalLong.of(Long.parseLong(((ScalarNode) node.get()).getValue()));
  }

  private static Optional<String> uint32Problem(Node node) {
    if (!(node instanceof ScalarNode scalar) || Tag.STR.equals(node.getTag()) || isNull(node)) {
      return Optional.of("must be a number, found " + describe(node));
    }
    String text = scalar.getValue();
    if (Tag.FLOAT.equals(node.getTag())) {
      return Optional.of("must be a whole number: " + text);
    }
    if (!Tag.INT.equals(node.getTag())) {
      return Optional.of("must be a number, found " + describe(node));
    }
    if (NEGATIVE.matcher(text).matches()) {
      return Optional.of("must be >= 0: " + text);
    }
    if (!DECIMAL.matcher(text).matches()) {
      return Optional.of("must be a plain decimal number: " + text);
    }
    if (new BigInteger(text).compareTo(MAX_UINT32) > 0) {
      return Optional.of("must be <= " + MAX_UINT32 + ": " + text);
    }
    return Optional.empty();
  }

  /** The items of a list field; empty when absent or null, or (after reporting) not a list. */
  List<Node> list(Fields fields, String name) {
    Optional<Node> node = fields.get(name).filter(n -> !isNull(n));
    if (node.isPresent() && !(node.get() instanceof SequenceNode)) {
      report(node.get(), name + " must be a list, found " + describe(node.get()));
      return List.of();
    }
    return node.map(n -> ((SequenceNode) n).getValue()).orElse(List.of());
  }

  /** The allowed fields of one YAML map, by name. */
  record Fields(MappingNode map, Map<String, NodeTuple> byName) {
    Optional<Node> get(String name) {
      return Optional.ofNullable(byName.get(name)).map(NodeTuple::getValueNode);
    }

    boolean has(String name) {
      return byName.containsKey(name);
    }

    /** Line of the field's name, or of the map when the field is absent. */
    int line(String name) {
      NodeTuple tuple = byName.get(name);
      return NodeReader.line(tuple == null ? map : tuple.getKeyNode());
    }

    int line() {
      return NodeReader.line(map);
    }
  }
}
