package dev.sluice.limiter;

import dev.sluice.config.LimiterConfig;
import dev.sluice.metrics.RuleCounts;
import dev.sluice.store.Charge;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.CountingAlgorithm;
import java.util.List;

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
   * How the hits of one limit of a counted descriptor split.
   *
   * @param counter the limit, with its metric series
   * @param refused the descriptor was answered OVER_LIMIT (shadow mode answers OK)
   */
  record RuleOutcome(
      Plan.Counted counted, Plan.Counter counter, RuleCounts counts, boolean refused) {}

  /**
   * Decides from {@code plans}, in which no {@link Plan.Counted} is left unanswered.
   *
   * @throws IllegalStateException when a counted plan has no answer
   */
  static Verdict of(List<Plan> plans, LimiterConfig settings) {
    return of(plans, settings, new HitAccounting(settings.nearLimitRatio()));
  }

  /**
   * {@link #of(List, LimiterConfig)} with the limiter's own {@code accounting}, built once from
   * {@code settings}.
   */
  static Verdict of(List<Plan> plans, LimiterConfig settings, HitAccounting accounting) {
    DescriptorDecision[] statuses = new DescriptorDecision[plans.size()];
    RuleOutcome[] outcomes = new RuleOutcome[outcomeCount(plans)];
    int outcomeCount = 0;
    boolean regularOver = false;
    int quota = 0;
    int quotaOver = 0;
    for (int p = 0; p < statuses.length; p++) {
      Plan plan = plans.get(p);
      DescriptorDecision status = statusOf(plan);
      statuses[p] = status;
      boolean over = status.code() == Code.OVER_LIMIT;
      outcomeCount = addOutcomes(plan, over, accounting, outcomes, outcomeCount);
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
    return new Verdict(new Decision(overall, List.of(statuses)), List.of(outcomes), shadowed);
  }

  /** One outcome per limit of each answered plan: sized exactly, so no growing list is needed. */
  private static int outcomeCount(List<Plan> plans) {
    int count = 0;
    for (int p = 0; p < plans.size(); p++) {
      if (plans.get(p) instanceof Plan.Answered answered) {
        count += answered.counted().counters().size();
      }
    }
    return count;
  }

  private static DescriptorDecision statusOf(Plan plan) {
    if (plan instanceof Plan.Answered answered) {
      return statusOf(answered);
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

  /**
   * One status for all limits of a descriptor, as Envoy wants one: OVER_LIMIT when any refused;
   * {@code current_limit} and the reset from the limit that refused (the first if several did),
   * else from the one closest to running out; {@code limit_remaining} the least over all limits.
   */
  private static DescriptorDecision statusOf(Plan.Answered answered) {
    Plan.Counted counted = answered.counted();
    List<Usage> usages = answered.usages();
    int chosen = governing(counted, usages);
    long remaining = Long.MAX_VALUE;
    for (int i = 0; i < usages.size(); i++) {
      remaining = Math.min(remaining, usages.get(i).remaining());
    }
    Usage governing = usages.get(chosen);
    boolean over = governing.overLimit() && !counted.flags().shadowMode();
    return new DescriptorDecision(
        over ? Code.OVER_LIMIT : Code.OK,
        counted.counters().get(chosen).reported().present(),
        remaining,
        governing.untilResetMicros(),
        counted.limits());
  }

  /**
   * The counter that governs a descriptor's status: the first that refused, else the one with the
   * lowest remaining fraction of its capacity after this hit (the first on a tie).
   */
  static int governing(Plan.Counted counted, List<Usage> usages) {
    int chosen = 0;
    double lowest = Double.MAX_VALUE;
    for (int i = 0; i < usages.size(); i++) {
      if (usages.get(i).overLimit()) {
        return i;
      }
      long capacity = counted.counters().get(i).hit().limit().capacity();
      double fraction = capacity == 0 ? 0 : usages.get(i).remaining() / (double) capacity;
      if (fraction < lowest) {
        lowest = fraction;
        chosen = i;
      }
    }
    return chosen;
  }

  /**
   * Writes one outcome per limit of an answered plan into {@code outcomes} from {@code at}.
   *
   * @return the next free index
   */
  private static int addOutcomes(
      Plan plan, boolean refused, HitAccounting accounting, RuleOutcome[] outcomes, int at) {
    if (!(plan instanceof Plan.Answered answered)) {
      return at;
    }
    Plan.Counted counted = answered.counted();
    boolean shadow = counted.flags().shadowMode();
    for (int i = 0; i < counted.counters().size(); i++) {
      Plan.Counter counter = counted.counters().get(i);
      Hit hit = counter.hit();
      RuleCounts counts =
          answered.source() == Plan.Source.OVER_LIMIT_CACHE
              ? HitAccounting.cachedOver(hit.hits(), shadow)
              : accounting.counts(
                  hit.limit(),
                  hit.hits(),
                  answered.usages().get(i),
                  shadow,
                  refusedHitsCharged(counted, hit));
      outcomes[at++] = new RuleOutcome(counted, counter, counts, refused);
    }
    return at;
  }

  /** Only a lone limit charged by its algorithm (a fixed window) still counts refused hits. */
  private static boolean refusedHitsCharged(Plan.Counted counted, Hit hit) {
    return counted.policy() == Charge.Policy.EACH
        && CountingAlgorithm.of(hit.limit().algorithm()).chargesRefusedHits();
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
