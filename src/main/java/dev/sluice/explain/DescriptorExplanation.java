package dev.sluice.explain;

import dev.sluice.rules.Entry;
import dev.sluice.rules.MatchStep;
import dev.sluice.rules.Rule;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One descriptor's explanation.
 *
 * @param steps every candidate the matcher tried, in order (empty for an override, which bypasses
 *     the rules, and for an unknown domain)
 * @param rule the rule the last entry reached; empty when nothing matched
 */
public record DescriptorExplanation(
    List<Entry> entries, List<MatchStep> steps, Optional<Rule> rule, Effect effect) {
  public DescriptorExplanation {
    entries = List.copyOf(entries);
    steps = List.copyOf(steps);
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(effect, "effect");
  }
}
