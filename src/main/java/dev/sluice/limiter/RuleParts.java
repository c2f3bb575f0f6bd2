package dev.sluice.limiter;

import dev.sluice.rules.Limit;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What every plan of one single-limit rule shares: the limit it reports and, unless its metric
 * series names request values, that series. Built on a rule's first request and kept with its rule
 * snapshot, so a request allocates none of it (issue 16: about 90 of a decision's bytes).
 *
 * @param counters the plan's one counter, {@code reported} with the rule's metric series; null for
 *     a {@code detailed_metric} or {@code value_to_metric} rule, whose series depends on the
 *     request
 */
record RuleParts(Plan.Reported reported, List<Plan.Counter> counters) {

  /**
   * The parts of the rules of the snapshot requests use now. Thread-safe: the snapshot's map is
   * concurrent, and a request that sees another snapshot starts a new map (a reload drops the old
   * one whole, so entries never outlive their rules). Holds at most one entry per counted rule of
   * the snapshot: a rule set of 100,000 rules that are all hit costs about 17 MB.
   */
  static final class Cache {
    private record OfSnapshot(RuleSet snapshot, ConcurrentHashMap<Rule, RuleParts> byRule) {}

    private volatile OfSnapshot current =
        new OfSnapshot(RuleSet.empty(), new ConcurrentHashMap<>());

    /** The parts of {@code rule}, whose one limit is {@code limit}, in {@code snapshot}. */
    RuleParts of(RuleSet snapshot, Rule rule, Limit limit) {
      OfSnapshot cached = current;
      if (cached.snapshot() != snapshot) {
        // Racing requests on two snapshots (a reload in flight) may each start a map: harmless,
        // the parts are values and the loser's map is dropped.
        cached = new OfSnapshot(snapshot, new ConcurrentHashMap<>());
        current = cached;
      }
      RuleParts parts = cached.byRule().get(rule);
      if (parts == null) {
        parts = build(rule, limit);
        cached.byRule().putIfAbsent(rule, parts);
      }
      return parts;
    }

    private static RuleParts build(Rule rule, Limit limit) {
      boolean detailed = rule.flags().detailedMetric() || rule.flags().valueToMetric();
      Plan.Reported reported =
          Plan.Reported.of(new CurrentLimit(limit, rule.name(), rule.metadata()));
      if (detailed) {
        return new RuleParts(reported, null);
      }
      Plan.MetricLabel metric = new Plan.MetricLabel(rule.path(), Optional.empty());
      return new RuleParts(reported, List.of(new Plan.Counter(reported, metric)));
    }
  }
}
