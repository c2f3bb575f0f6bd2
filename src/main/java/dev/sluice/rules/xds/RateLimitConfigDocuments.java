package dev.sluice.rules.xds;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.sluice.rules.load.RuleDocument;
import dev.sluice.rules.xds.v3.RateLimitConfig;
import dev.sluice.rules.xds.v3.RateLimitDescriptor;
import dev.sluice.rules.xds.v3.RateLimitPolicy;
import dev.sluice.rules.xds.v3.RateLimitReplace;
import dev.sluice.rules.xds.v3.RateLimitUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Turns a pushed {@link RateLimitConfig} into the node tree its YAML rule file would compose to, so
 * that {@code RuleLoader} applies the same checks with the same messages (as the reference turns it
 * into its YAML structs). Only fields that differ from proto3's defaults are written, as an
 * operator would write the file: an unset {@code unit} is no unit, an empty {@code value} is no
 * value. Stateless.
 */
final class RateLimitConfigDocuments {
  static final String PREFIX = "xds:";

  private RateLimitConfigDocuments() {}

  /**
   * @param index the resource's place in the response, naming it when it has no name
   */
  static RuleDocument of(RateLimitConfig config, int index) {
    String name = config.getName().isEmpty() ? "resource#" + index : config.getName();
    Fields top = new Fields();
    top.put("domain", text(config.getDomain()));
    top.putIfAny("descriptors", descriptors(config.getDescriptorsList()));
    return new RuleDocument(PREFIX + name, top.toNode());
  }

  private static List<Node> descriptors(List<RateLimitDescriptor> descriptors) {
    return descriptors.stream().map(RateLimitConfigDocuments::descriptor).toList();
  }

  private static Node descriptor(RateLimitDescriptor d) {
    Fields f = new Fields();
    f.put("key", text(d.getKey()));
    if (!d.getValue().isEmpty()) {
      f.put("value", text(d.getValue()));
    }
    if (d.hasRateLimit()) {
      f.put("rate_limit", policy(d.getRateLimit()));
    }
    f.putIfAny("descriptors", descriptors(d.getDescriptorsList()));
    f.putIfTrue("shadow_mode", d.getShadowMode());
    f.putIfTrue("detailed_metric", d.getDetailedMetric());
    f.putIfTrue("quota_mode", d.getQuotaMode());
    if (d.hasMetadata()) {
      f.put("metadata", struct(d.getMetadata()));
    }
    return f.toNode();
  }

  private static Node policy(RateLimitPolicy p) {
    Fields f = new Fields();
    if (p.getUnit() == RateLimitUnit.UNRECOGNIZED) {
      f.put("unit", text(Integer.toString(p.getUnitValue())));
    } else if (p.getUnit() != RateLimitUnit.UNKNOWN) {
      f.put("unit", text(p.getUnit().name().toLowerCase(Locale.ROOT)));
    }
    if (p.getRequestsPerUnit() != 0) {
      f.put("requests_per_unit", scalar(Tag.INT, Integer.toUnsignedString(p.getRequestsPerUnit())));
    }
    f.putIfTrue("unlimited", p.getUnlimited());
    if (!p.getName().isEmpty()) {
      f.put("name", text(p.getName()));
    }
    List<Node> replaces = new ArrayList<>();
    for (RateLimitReplace replace : p.getReplacesList()) {
      Fields entry = new Fields();
      if (!replace.getName().isEmpty()) {
        entry.put("name", text(replace.getName()));
      }
      replaces.add(entry.toNode());
    }
    f.putIfAny("replaces", replaces);
    return f.toNode();
  }

  private static Node struct(Struct struct) {
    Fields f = new Fields();
    for (Map.Entry<String, Value> field : struct.getFieldsMap().entrySet()) {
      f.put(field.getKey(), value(field.getValue()));
    }
    return f.toNode();
  }

  private static Node value(Value value) {
    return switch (value.getKindCase()) {
      case STRUCT_VALUE -> struct(value.getStructValue());
      case LIST_VALUE -> list(value.getListValue());
      case STRING_VALUE -> text(value.getStringValue());
      case NUMBER_VALUE -> scalar(Tag.FLOAT, Double.toString(value.getNumberValue()));
      case BOOL_VALUE -> scalar(Tag.BOOL, Boolean.toString(value.getBoolValue()));
      case NULL_VALUE, KIND_NOT_SET -> scalar(Tag.NULL, "null");
    };
  }

  private static Node list(ListValue list) {
    List<Node> items = list.getValuesList().stream().map(RateLimitConfigDocuments::value).toList();
    return new SequenceNode(Tag.SEQ, items, DumperOptions.FlowStyle.BLOCK);
  }

  private static ScalarNode text(String value) {
    return scalar(Tag.STR, value);
  }

  private static ScalarNode scalar(Tag tag, String value) {
    return new ScalarNode(tag, value, null, null, DumperOptions.ScalarStyle.PLAIN);
  }

  /** A YAML map under construction, in field order. */
  private static final class Fields {
    private final List<NodeTuple> tuples = new ArrayList<>();

    void put(String name, Node value) {
      tuples.add(new NodeTuple(text(name), value));
    }

    void putIfTrue(String name, boolean value) {
      if (value) {
        put(name, scalar(Tag.BOOL, "true"));
      }
    }

    void putIfAny(String name, List<Node> items) {
      if (!items.isEmpty()) {
        put(name, new SequenceNode(Tag.SEQ, items, DumperOptions.FlowStyle.BLOCK));
      }
    }

    Node toNode() {
      return new MappingNode(Tag.MAP, tuples, DumperOptions.FlowStyle.BLOCK);
    }
  }
}
