package dev.sluice.rules;

import java.util.List;
import java.util.Map;

/**
 * A compiled descriptor: its rule, how it was matched, and its children grouped by key. Immutable
 * after {@link RuleSet#compile}.
 */
final class DescriptorNode {
  final Rule rule;
  final Map<String, KeyGroup> children;

  /** Non-null when this node is a {@code share_threshold} wildcard: the shared counter value. */
  final String sharedValue;

  DescriptorNode(Rule rule, Map<String, KeyGroup> children, String sharedValue) {
    this.rule = rule;
    this.children = children;
    this.sharedValue = sharedValue;
  }

  /**
   * Whether a request whose last entry lands here is matched by this node. A node with a rate_limit
   * (counted or unlimited) is; so is a leaf without one, which is how the format exempts a value.
   * An inner node without a rate_limit is only a way to its children, so the search tries the next
   * candidate instead.
   */
  boolean endsMatch() {
    return !(rule.kind() instanceof RuleKind.NoRateLimit) || children.isEmpty();
  }

  /**
   * The candidates for one request key at one level, in the order they are tried; {@code index}
   * says which of {@code wildcards} may match a value.
   */
  record KeyGroup(
      Map<String, DescriptorNode> exact,
      List<Wildcard> wildcards,
      WildcardIndex index,
      DescriptorNode keyOnly) {}

  record Wildcard(WildcardPattern pattern, DescriptorNode node) {}
}
