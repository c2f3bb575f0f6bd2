package dev.sluice.limiter;

import dev.sluice.config.LimiterConfig;
import dev.sluice.metrics.RuleCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The finished decision of one request, computed from its finished plans alone (no store, no
 * metrics, no clock), and what metrics must record for it.
 *
 * @param decision the answer
 * @param outcomes one per descriptor answered with a usage, in request order
 * @param shadowedByGlobal the request was over the limit and answered OK only because of global
 *     shadow mode
 */
record Verdict(Decision decision, List<RuleOutcome> outcomes, boolean shadowedByGlobal) {

  /**
   * How a counted descriptor's hits split.
   *
   * @param refused the descriptor was answered OVER_LIMIT (shadow mode answers OK)
   */
  record RuleOutcome(Plan.Counted counted, RuleCounts counts, boolean refused) {}

  /**
   * Decides from {@code plans}, in which no {@link Plan.Counted} is left unanswered.
   *
   * @throws IllegalStateException when a counted plan has no answer
   */
  static Verdict of(List<Plan> plans, LimiterConfig settings) {
    HitAccounting accounting = new HitAccounting(settings.nearLimitRatio());
    List<DescriptorDecision> statuses = new ArrayList<>(plans.size());
    List<RuleOutcome> outcomes = new ArrayList<>(plans.size());
    boolean regularOver = false;
    int quota = 0;
    int quotaOver = 0;
    for (Plan plan : plans) {
      DescriptorDecision status = statusOf(plan);
      statuses.add(status);
      boolean over = status.code() == Code.OVER_LIMIT;
      outcomeOf(plan, over, accounting).ifPresent(outcomes::add);
      if (quotaMode(plan, settings.globalQuotaMode())) {
        quota++;
        quotaOver += over ? 1 : 0;
      } else {
        regularOver |= over;
      }
    }
    // OVER_LIMIT when a regular descriptor is over, or when every quota-mode descriptor is.
    boolean overLimit = regularOver || (quota > 0 && quotaOver == quota);
    boolean shadowed = overLimit && settings.globalShadowMode();
    Code overall = overLimit && !shadowed ? Code.OVER_LIMIT : Code.OK;
    return new Verdict(new Decision(overall, statuses), outcomes, shadowed);
  }

  private static DescriptorDecision statusOf(Plan plan) {
    if (plan instanceof Plan.Answered answered) {
      Plan.Counted counted = answered.counted();
      boolean over = answered.usage().overLimit() && !counted.flags().shadowMode();
      return new DescriptorDecision(
          over ? Code.OVER_LIMIT : Code.OK,
          Optional.of(counted.limit()),
          answered.usage().remaining(),
          Optional.of(answered.usage().untilReset()));
    }
    if (plan instanceof Plan.ByFailurePolicy policy) {
      return policy.status();
    }
    if (plan instanceof Plan.Unlimited) {
      return DescriptorDecision.UNLIMITED;
    }
    if (plan instanceof Plan.NotLimited) {
      return DescriptorDecision.NOT_LIMITED;
    }
    throw new IllegalStateException("a counted descriptor has no answer: " + plan);
  }

  private static Optional<RuleOutcome> outcomeOf(
      Plan plan, boolean refused, HitAccounting accounting) {
    if (!(plan instanceof Plan.Answered answered)) {
      return Optional.empty();
    }
    Plan.Counted counted = answered.counted();
    boolean shadow = counted.flags().shadowMode();
    RuleCounts counts =
        answered.source() == Plan.Source.OVER_LIMIT_CACHE
            ? HitAccounting.cachedOver(counted.hit().hits(), shadow)
            : accounting.counts(
                counted.hit().limit(), counted.hit().hits(), answered.usage(), shadow);
    return Optional.of(new RuleOutcome(counted, counts, refused));
  }

  /**
   * Global quota mode, as in the reference, puts every descriptor but an unlimited one in quota
   * mode, also one that matched no rule (it counts as passing).
   */
  private static boolean quotaMode(Plan plan, boolean global) {
    if (global && !(plan instanceof Plan.Unlimited)) {
      return true;
    }
    if (plan instanceof Plan.Answered answered) {
      return answered.counted().flags().quotaMode();
    }
    return plan instanceof Plan.ByFailurePolicy policy && policy.counted().flags().quotaMode();
  }
}
