package dev.sluice.limiter;

import dev.sluice.metrics.RuleCounts;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.store.Usage;
import java.util.List;

/**
 * Records what a decision did to each counted limit: its rule's metric series (hits split into
 * within, near and over the limit, shadow mode, local cache) and, when one listens, a {@link
 * CountedOutcome} for the live page. Called by {@link RateLimiter} as it walks a decision's plans,
 * on whichever thread finished the decision. Thread-safe: holds nothing per request.
 */
final class DecisionRecorder {
  private final SluiceMetrics metrics;
  private final HitAccounting accounting;
  private final DecisionListener listener;

  DecisionRecorder(SluiceMetrics metrics, HitAccounting accounting, DecisionListener listener) {
    this.metrics = metrics;
    this.accounting = accounting;
    this.listener = listener;
  }

  /**
   * Records each limit of {@code counted}, answered by {@code usages} from {@code from}.
   *
   * @param refused the descriptor was answered OVER_LIMIT (shadow mode answers OK)
   */
  void record(
      String domain,
      Plan.Counted counted,
      List<Usage> usages,
      int from,
      Plan.Source source,
      boolean refused) {
    for (int i = 0; i < counted.counters().size(); i++) {
      recordLimit(domain, counted, i, usages.get(from + i), source, refused);
    }
  }

  /** Records limit {@code i} of {@code counted}, answered by {@code usage}, as {@link #record}. */
  void recordLimit(
      String domain,
      Plan.Counted counted,
      int i,
      Usage usage,
      Plan.Source source,
      boolean refused) {
    Plan.MetricLabel label = counted.counters().get(i).metric();
    RuleCounts counts = Verdict.counts(counted, i, usage, source, accounting);
    if (label.detailedPath().isPresent()) {
      metrics.detailedRuleOutcome(domain, label.rule(), label.detailedPath().get(), counts);
    } else {
      metrics.ruleOutcome(domain, label.rule(), counts);
    }
    if (listener != DecisionListener.NONE) {
      listener.counted(
          new CountedOutcome(
              domain,
              label.rule(),
              counted.hits().get(i).limit(),
              counted.entries(),
              label.detailedPath().isPresent(),
              counts,
              refused));
    }
  }
}
