package dev.sluice.rules;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One descriptor of a rule file as the loader read it, before it is compiled into a {@link
 * RuleSet}. The loader has already checked it (with file and line); {@link RuleSet#compile}
 * re-checks only what would make the tree ambiguous.
 *
 * @param value empty for a key-only descriptor (matches every value, each with its own counter);
 *     may contain {@code *} wildcards
 * @param shareThreshold only with a wildcard value: all matching values share one counter
 * @param origin {@code file:line} of the descriptor, for operators and error messages
 * @param metadata the descriptor's free-form {@code metadata} (see {@link Rule#metadata()})
 */
public record DescriptorSpec(
    String key,
    Optional<String> value,
    Optional<RateLimitSpec> rateLimit,
    RuleFlags flags,
    boolean shareThreshold,
    List<DescriptorSpec> children,
    String origin,
    Map<String, Object> metadata) {

  public DescriptorSpec {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(rateLimit, "rateLimit");
    Objects.requireNonNull(flags, "flags");
    children = List.copyOf(children);
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(metadata, "metadata");
    if (key.isEmpty()) {
      throw new IllegalArgumentException("descriptor has empty key at " + origin);
    }
  }

  /** Without metadata. */
  public DescriptorSpec(
      String key,
      Optional<String> value,
      Optional<RateLimitSpec> rateLimit,
      RuleFlags flags,
      boolean shareThreshold,
      List<DescriptorSpec> children,
      String origin) {
    this(key, value, rateLimit, flags, shareThreshold, children, origin, Map.of());
  }

  /** True when the value contains a {@code *}. */
  public boolean wildcard() {
    return value.map(v -> v.indexOf('*') >= 0).orElse(false);
  }

  /** The reference's composite key: {@code key_value}, or {@code key} when there is no value. */
  public String compositeKey() {
    return value.map(v -> key + "_" + v).orElse(key);
  }
}
