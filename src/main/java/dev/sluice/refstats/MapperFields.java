package dev.sluice.refstats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * The keys of one YAML mapping of a mapper file, with their lines: checked against the keys
 * statsd_exporter knows (an unknown key is an error, as its strict parsing makes it), and read as
 * text, numbers, booleans and lists. Every problem is a {@link MapperException} at the node's line.
 */
final class MapperFields {
  private final String source;
  private final int line;
  private final Map<String, Node> values = new LinkedHashMap<>();

  /**
   * @param known the keys statsd_exporter accepts here
   * @param unsupported keys it accepts that Sluice does not serve, each with the reason
   */
  MapperFields(
      String source, Node node, String where, Set<String> known, Map<String, String> unsupported) {
    this.source = source;
    this.line = lineOf(node);
    if (!(node instanceof MappingNode map)) {
      throw new MapperException(source, line, where + " must be a mapping of keys to values");
    }
    for (NodeTuple tuple : map.getValue()) {
      String key = scalar(tuple.getKeyNode(), where + " key");
      int keyLine = lineOf(tuple.getKeyNode());
      if (unsupported.containsKey(key) && !isNull(tuple.getValueNode())) {
        throw new MapperException(
            source, keyLine, "'" + key + "' is not supported: " + unsupported.get(key));
      }
      if (!known.contains(key) && !unsupported.containsKey(key)) {
        throw new MapperException(
            source,
            keyLine,
            "unknown key '" + key + "' in " + where + "; known: " + new TreeSet<>(known));
      }
      if (values.put(key, tuple.getValueNode()) != null) {
        throw new MapperException(source, keyLine, "key '" + key + "' given twice in " + where);
      }
    }
  }

  static int lineOf(Node node) {
    return node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
  }

  static boolean isNull(Node node) {
    return node == null || Tag.NULL.equals(node.getTag());
  }

  int line() {
    return line;
  }

  int line(String key) {
    Node node = values.get(key);
    return node == null ? line : lineOf(node);
  }

  /** The key's node; empty when absent or null. */
  Optional<Node> node(String key) {
    return Optional.ofNullable(values.get(key)).filter(node -> !isNull(node));
  }

  Optional<String> text(String key) {
    return node(key).map(node -> scalar(node, "'" + key + "'"));
  }

  Optional<Double> number(String key) {
    return node(key).map(node -> number(node, key));
  }

  Optional<Boolean> bool(String key) {
    return text(key)
        .map(
            value ->
                switch (value.toLowerCase(Locale.ROOT)) {
                  case "true", "yes", "on" -> true;
                  case "false", "no", "off" -> false;
                  default -> throw fail(key, "'" + key + "' must be true or false: " + value);
                });
  }

  /** The key's list items; empty when absent. */
  List<Node> list(String key) {
    Optional<Node> node = node(key);
    if (node.isEmpty()) {
      return List.of();
    }
    if (!(node.get() instanceof SequenceNode sequence)) {
      throw fail(key, "'" + key + "' must be a list");
    }
    return new ArrayList<>(sequence.getValue());
  }

  /**
   * The key's nested mapping as text values, in file order; empty when absent.
   *
   * @param validName checks each name; a name it refuses is an error at its line, naming it
   */
  Map<String, String> textMap(String key, Predicate<String> validName, String expected) {
    Optional<Node> node = node(key);
    Map<String, String> out = new LinkedHashMap<>();
    if (node.isEmpty()) {
      return out;
    }
    if (!(node.get() instanceof MappingNode map)) {
      throw fail(key, "'" + key + "' must be a mapping of names to values");
    }
    for (NodeTuple tuple : map.getValue()) {
      String name = scalar(tuple.getKeyNode(), "a key of '" + key + "'");
      if (!validName.test(name)) {
        throw new MapperException(
            source,
            lineOf(tuple.getKeyNode()),
            "invalid name '" + name + "' in '" + key + "' (" + expected + ")");
      }
      Node value = tuple.getValueNode();
      out.put(name, isNull(value) ? "" : scalar(value, "'" + key + "." + name + "'"));
    }
    return out;
  }

  double number(Node node, String what) {
    String text = scalar(node, "'" + what + "'");
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new MapperException(source, lineOf(node), "'" + what + "' must be a number: " + text);
    }
  }

  String scalar(Node node, String what) {
    if (!(node instanceof ScalarNode scalar)) {
      throw new MapperException(source, lineOf(node), what + " must be a single value");
    }
    return scalar.getValue();
  }

  MapperException fail(String key, String message) {
    return new MapperException(source, line(key), message);
  }
}
