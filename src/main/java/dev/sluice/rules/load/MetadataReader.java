package dev.sluice.rules.load;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A descriptor's free-form {@code metadata} map as plain values, the way the reference turns its
 * YAML into a protobuf Struct: maps (string keys, file order), lists, strings, booleans, numbers
 * (as {@code Double}, Struct's only number) and {@code null}. Returned maps and lists are
 * unmodifiable. Nothing in it is checked beyond being a map, as in the reference.
 */
final class MetadataReader {
  private MetadataReader() {}

  /** {@code node} as a map; the caller has checked that it is a {@link MappingNode}. */
  static Map<String, Object> map(MappingNode node) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (NodeTuple tuple : node.getValue()) {
      Object key = value(tuple.getKeyNode());
      map.putIfAbsent(String.valueOf(key), value(tuple.getValueNode()));
    }
    return Collections.unmodifiableMap(map);
  }

  private static Object value(Node node) {
    if (node instanceof MappingNode mapping) {
      return map(mapping);
    }
    if (node instanceof SequenceNode sequence) {
      List<Object> items = new ArrayList<>();
      sequence.getValue().forEach(item -> items.add(value(item)));
      return Collections.unmodifiableList(items);
    }
    return scalar((ScalarNode) node);
  }

  private static Object scalar(ScalarNode node) {
    String text = node.getValue();
    Tag tag = node.getTag();
    try {
      if (Tag.NULL.equals(tag)) {
        return null;
      }
      if (Tag.BOOL.equals(tag)) {
        return NodeReader.isTrue(text);
      }
      if (Tag.INT.equals(tag)) {
        return new BigInteger(text.replace("_", "")).doubleValue();
      }
      if (Tag.FLOAT.equals(tag)) {
        return Double.parseDouble(text.replace("_", ""));
      }
    } catch (NumberFormatException e) {
      // 0x1F, 0o17, .inf: kept as the text written, rather than guessing a number.
    }
    return text;
  }
}
