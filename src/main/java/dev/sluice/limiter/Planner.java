package dev.sluice.limiter;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Match;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.CounterKey;
import dev.sluice.store.Hit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a request into one {@link Planned} per descriptor against one rule snapshot: match, drop
 * rules named by another matched rule's {@code replaces}, and build the counter key and hit.
 */
final class Planner {
  private final Algorithm overrideAlgorithm;

  Planner(Algorithm overrideAlgorithm) {
    this.overrideAlgorithm = overrideAlgorithm;
  }

  /**
   * @return one entry per descriptor, in request order; empty when the domain is unknown
   */
  List<Planned> plan(RuleSet snapshot, RateLimitCall call) {
    List<Optional<Match>> matches = new ArrayList<>(call.descriptors().size());
    for (DescriptorRequest descriptor : call.descriptors()) {
      // An override bypasses the rules entirely: its descriptor's rule must not drop others.
      matches.add(
          descriptor.override().isPresent()
              ? Optional.empty()
              : snapshot.match(call.domain(), descriptor.entries()));
    }
    Set<String> replaced = replacedNames(matches);
    List<Planned> plan = new ArrayList<>(matches.size());
    for (int i = 0; i < matches.size(); i++) {
      DescriptorRequest descriptor = call.descriptors().get(i);
      long hits = call.hitsFor(descriptor);
      if (descriptor.override().isPresent()) {
        plan.add(planOverride(call.domain(), descriptor, hits));
      } else {
        plan.add(planRule(call.domain(), descriptor, matches.get(i), replaced, hits));
      }
    }
    return plan;
  }

  private static Set<String> replacedNames(List<Optional<Match>> matches) {
    Set<String> names = null;
    for (Optional<Match> match : matches) {
      if (match.isPresent() && !match.get().rule().replaces().isEmpty()) {
        if (names == null) {
          names = new HashSet<>();
        }
        names.addAll(match.get().rule().replaces());
      }
    }
    return names == null ? Set.of() : names;
  }

  private Planned planOverride(String domain, DescriptorRequest descriptor, long hits) {
    LimitOverride override = descriptor.override().orElseThrow();
    Limit limit = Limit.of(override.requestsPerUnit(), override.unit(), overrideAlgorithm);
    String key = CounterKey.of(domain, descriptor.entries(), limit);
    return Planned.counted(
        null, new CurrentLimit(limit, ""), new Hit(key, limit, hits), Planned.OVERRIDE_LABEL);
  }

  private static Planned planRule(
      String domain,
      DescriptorRequest descriptor,
      Optional<Match> match,
      Set<String> replaced,
      long hits) {
    if (match.isEmpty()) {
      return Planned.NOT_LIMITED;
    }
    Rule rule = match.get().rule();
    if (!rule.name().isEmpty() && replaced.contains(rule.name())) {
      return Planned.NOT_LIMITED;
    }
    if (rule.unlimited()) {
      return Planned.UNLIMITED;
    }
    if (rule.limit().isEmpty()) {
      return Planned.NOT_LIMITED;
    }
    Limit limit = rule.limit().get();
    String key = CounterKey.of(domain, match.get().counterEntries(), limit);
    boolean detailed = rule.flags().detailedMetric() || rule.flags().valueToMetric();
    String metricRule = detailed ? detailedPath(descriptor.entries()) : rule.path();
    return Planned.counted(
        rule, new CurrentLimit(limit, rule.name()), new Hit(key, limit, hits), metricRule);
  }

  /** The reference's detailed stats key: {@code key_value} per level, joined with dots. */
  private static String detailedPath(List<Entry> entries) {
    StringBuilder path = new StringBuilder();
    for (Entry entry : entries) {
      if (path.length() > 0) {
        path.append('.');
      }
      path.append(entry.key()).append('_').append(entry.value());
    }
    return path.toString();
  }
}
