package dev.sluice.limiter;

import dev.sluice.config.FailureMode;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Rule;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import java.util.Optional;

/**
 * What one descriptor will do: either a fixed answer ({@code hit == null}), or a hit whose usage
 * decides.
 *
 * @param rule null for a client override or a fixed answer
 * @param metricRule the rule label for metrics: the rule's path, its capped request-value path for
 *     a {@code detailed_metric} rule, or {@code _override}
 */
record Planned(
    Rule rule, CurrentLimit limit, Hit hit, DescriptorDecision fixed, String metricRule) {
  static final String OVERRIDE_LABEL = "_override";
  static final Planned NOT_LIMITED =
      new Planned(null, null, null, DescriptorDecision.NOT_LIMITED, null);
  static final Planned UNLIMITED =
      new Planned(null, null, null, DescriptorDecision.UNLIMITED, null);

  static Planned counted(Rule rule, CurrentLimit limit, Hit hit, String metricRule) {
    return new Planned(rule, limit, hit, null, metricRule);
  }

  boolean counted() {
    return hit != null;
  }

  boolean quotaMode() {
    return rule != null && rule.flags().quotaMode();
  }

  boolean shadowMode() {
    return rule != null && rule.shadowMode();
  }

  boolean detailedMetric() {
    return rule != null && (rule.flags().detailedMetric() || rule.flags().valueToMetric());
  }

  /** The answer once the store reported {@code usage} for this descriptor's hit. */
  DescriptorDecision status(Usage usage) {
    Code code = usage.overLimit() && !shadowMode() ? Code.OVER_LIMIT : Code.OK;
    return new DescriptorDecision(
        code, Optional.of(limit), usage.remaining(), Optional.of(usage.untilReset()));
  }

  /** The answer of {@link FailureMode#DENY}: over the limit, nothing known about the window. */
  DescriptorDecision denied() {
    Code code = shadowMode() ? Code.OK : Code.OVER_LIMIT;
    return new DescriptorDecision(code, Optional.of(limit), 0, Optional.empty());
  }

  /** This hit against {@code ceil(limit / instances)}, for {@link FailureMode#LOCAL}. */
  Hit localShare(int instances) {
    Limit full = hit.limit();
    Limit share =
        new Limit(
            ceilDiv(full.requestsPerUnit(), instances),
            full.unit(),
            full.algorithm(),
            full.algorithm() == dev.sluice.rules.Algorithm.TOKEN_BUCKET
                ? ceilDiv(full.burst(), instances)
                : ceilDiv(full.requestsPerUnit(), instances));
    return new Hit(hit.key(), share, hit.hits());
  }

  private static long ceilDiv(long value, int by) {
    return (value + by - 1) / by;
  }
}
