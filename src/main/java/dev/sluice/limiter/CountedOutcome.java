package dev.sluice.limiter;

import dev.sluice.metrics.RuleCounts;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import java.util.List;
import java.util.Objects;

/**
 * How one counted descriptor was answered, for a {@link DecisionListener}.
 *
 * @param rule the configured rule's path (bounded by the configuration), or {@code _override} for a
 *     client-supplied limit
 * @param limit the limit counted, with its window (for an override, the client's)
 * @param entries the request's own entries (raw values: a listener that shows them must respect
 *     {@code detailedMetric})
 * @param detailedMetric the rule allows showing request values ({@code detailed_metric} or {@code
 *     value_to_metric})
 * @param refused the descriptor was answered OVER_LIMIT (shadow mode answers OK, so never refused)
 */
public record CountedOutcome(
    String domain,
    String rule,
    Limit limit,
    List<Entry> entries,
    boolean detailedMetric,
    RuleCounts counts,
    boolean refused) {
  public CountedOutcome {
    Objects.requireNonNull(domain, "domain");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(entries, "entries");
    Objects.requireNonNull(counts, "counts");
  }
}
