package dev.sluice.rules.load;

import dev.sluice.rules.DescriptorSpec;
import dev.sluice.rules.RateLimitSpec;
import dev.sluice.rules.RuleFlags;
import dev.sluice.rules.load.NodeReader.Fields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads the descriptor tree of one rule file into {@link DescriptorSpec}s, reporting what {@link
 * dev.sluice.rules.RuleSet#compile} would reject (a repeated key/value at one level) with both
 * lines. {@code metadata} is accepted as any map, unchecked as in the reference, and kept for the
 * response's dynamic metadata.
 */
final class DescriptorReader {
  private final NodeReader reader;
  private final RateLimitReader rateLimits;
  private final String source;
  private final String domain;

  /**
   * @param source the file as named in each descriptor's origin ({@code source:line})
   * @param domain the file's domain, for messages
   */
  DescriptorReader(NodeReader reader, RateLimitReader rateLimits, String source, String domain) {
    this.reader = reader;
    this.rateLimits = rateLimits;
    this.source = source;
    this.domain = domain;
  }

  /**
   * The descriptors of one level, in file order; bad ones are reported and left out.
   *
   * @param parentPath the level's place, as in {@link dev.sluice.rules.Rule#path()}; {@code ""} at
   *     the top
   */
  List<DescriptorSpec> readLevel(List<Node> items, String parentPath) {
    List<DescriptorSpec> level = new ArrayList<>();
    Map<String, Integer> firstLineBySlot = new HashMap<>();
    for (Node item : items) {
      reader
          .fields(item, Place.DESCRIPTOR)
          .flatMap(fields -> readOne(fields, parentPath, firstLineBySlot))
          .ifPresent(level::add);
    }
    return level;
  }

  private Optional<DescriptorSpec> readOne(
      Fields f, String parentPath, Map<String, Integer> firstLineBySlot) {
    Optional<String> key = key(f);
    // An empty value matches any value in the reference, exactly like no value.
    Optional<String> value = reader.text(f, "value").filter(v -> !v.isEmpty());
    String composite = key.orElse("") + value.map(v -> "_" + v).orElse("");
    String path = parentPath.isEmpty() ? composite : parentPath + "." + composite;
    RuleFlags flags = flags(f);
    boolean shareThreshold = shareThreshold(f, value, composite);
    Optional<RateLimitSpec> rateLimit = rateLimit(f);
    Map<String, Object> metadata = metadata(f);
    List<DescriptorSpec> children = readLevel(reader.list(f, "descriptors"), path);
    if (key.isEmpty()) {
      return Optional.empty();
    }
    String slot = value.map(v -> key.get() + "\0" + v).orElse(key.get());
    Integer first = firstLineBySlot.putIfAbsent(slot, f.line("key"));
    if (first != null) {
      reader.report(
          f.line("key"),
          "duplicate descriptor '" + domain + "." + path + "' (first at line " + first + ")");
    }
    String origin = source + ":" + f.line("key");
    return Optional.of(
        new DescriptorSpec(
            key.get(), value, rateLimit, flags, shareThreshold, children, origin, metadata));
  }

  /** {@code rate_limit} or {@code rate_limits}; both on one descriptor is an error. */
  private Optional<RateLimitSpec> rateLimit(Fields f) {
    if (!f.has("rate_limits")) {
      return f.get("rate_limit").flatMap(rateLimits::read);
    }
    if (f.has("rate_limit")) {
      reader.report(
          f.line("rate_limits"),
          "a descriptor has either rate_limit or rate_limits, not both (rate_limit at line "
              + f.line("rate_limit")
              + ")");
      return Optional.empty();
    }
    Node list = f.get("rate_limits").orElseThrow();
    return rateLimits.readList(list, reader.list(f, "rate_limits"));
  }

  private RuleFlags flags(Fields f) {
    Optional<Boolean> chargeDenied =
        f.has("charge_denied") ? Optional.of(reader.flag(f, "charge_denied")) : Optional.empty();
    return new RuleFlags(
        reader.flag(f, "shadow_mode"),
        reader.flag(f, "quota_mode"),
        reader.flag(f, "detailed_metric"),
        reader.flag(f, "value_to_metric"),
        chargeDenied);
  }

  private boolean shareThreshold(Fields f, Optional<String> value, String composite) {
    boolean shareThreshold = reader.flag(f, "share_threshold");
    if (shareThreshold && !value.map(v -> v.contains("*")).orElse(false)) {
      reader.report(
          f.line("share_threshold"),
          "share_threshold can only be used with wildcard values (containing '*'), but found key '"
              + composite
              + "'");
    }
    return shareThreshold;
  }

  /** The descriptor's key; empty (after reporting) when missing or empty. */
  private Optional<String> key(Fields f) {
    if (!f.has("key")) {
      reader.report(f.line(), "descriptor has no key");
      return Optional.empty();
    }
    int before = reader.problemCount();
    Optional<String> key = reader.text(f, "key").filter(k -> !k.isEmpty());
    if (key.isEmpty() && reader.problemCount() == before) {
      reader.report(f.line("key"), "descriptor has empty key");
    }
    return key;
  }

  private Map<String, Object> metadata(Fields f) {
    Optional<Node> metadata = f.get("metadata").filter(n -> !NodeReader.isNull(n));
    if (metadata.isEmpty()) {
      return Map.of();
    }
    if (metadata.get() instanceof MappingNode map) {
      return MetadataReader.map(map);
    }
    reader.report(
        metadata.get(), "metadata must be a map, found " + NodeReader.describe(metadata.get()));
    return Map.of();
  }
}
