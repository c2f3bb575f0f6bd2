package dev.sluice.limiter;

import dev.sluice.config.LimiterConfig;
import dev.sluice.metrics.RuleCounts;
import dev.sluice.store.Charge;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.CountingAlgorithm;
import java.util.List;

/**
 * The finished decision of one request, computed from its plans and the usages that answer them
 * alone (no store, no metrics, no clock), and what metrics must record for it. Static functions
 * rather than a verdict object with a list of outcomes: the limiter records each limit's {@link
 * #counts} as it walks the plans, so a decision builds no outcome objects (issue 16).
 *
 * <p>The plans of a request are read with the usages that answer them: a plan still {@link
 * Plan.Counted} takes the next {@code counters().size()} usages of {@code usages}, in order; an
 * {@link Plan.Answered} one carries its own.
 */
final class Verdict {
  private Verdict() {}

  /**
   * Decides from {@code plans}, each counted one answered as the class comment says.
   *
   * @throws IllegalStateException when {@code usages} does not answer every counted plan
   */
  static Decision decide(List<Plan> plans, List<Usage> usages, LimiterConfig settings) {
    checkAnswered(plans, usages);
    List<DescriptorDecision> all;
    if (plans.size() == 1) {
      // The usual request: its one status in a one-element list, without an array to copy.
      all = List.of(statusOf(plans.get(0), usages, 0));
    } else {
      DescriptorDecision[] statuses = new DescriptorDecision[plans.size()];
      int next = 0;
      for (int p = 0; p < statuses.length; p++) {
        statuses[p] = statusOf(plans.get(p), usages, next);
        next += waiting(plans.get(p));
      }
      all = List.of(statuses);
    }
    return new Decision(overall(plans, all, settings), all);
  }

  /**
   * The request was over the limit and answered OK only because of global shadow mode.
   *
   * @param decision {@link #decide}'s answer for {@code plans}
   */
  static boolean shadowedByGlobal(List<Plan> plans, Decision decision, LimiterConfig settings) {
    return settings.globalShadowMode() && overLimit(plans, decision.statuses(), settings);
  }

  /** The usages a plan takes from the request's {@code usages}: none unless still counted. */
  static int waiting(Plan plan) {
    return plan instanceof Plan.Counted counted ? counted.counters().size() : 0;
  }

  private static void checkAnswered(List<Plan> plans, List<Usage> usages) {
    int expected = 0;
    for (int p = 0; p < plans.size(); p++) {
      expected += waiting(plans.get(p));
    }
    if (expected != usages.size()) {
      throw new IllegalStateException(
          usages.size() + " usages answer " + expected + " counters of " + plans);
    }
  }

  private static Code overall(
      List<Plan> plans, List<DescriptorDecision> statuses, LimiterConfig settings) {
    boolean overLimit = overLimit(plans, statuses, settings);
    boolean shadowed = overLimit && settings.globalShadowMode();
    return overLimit && !shadowed ? Code.OVER_LIMIT : Code.OK;
  }

  /** OVER_LIMIT when a regular descriptor is over, or when every quota-mode descriptor is. */
  private static boolean overLimit(
      List<Plan> plans, List<DescriptorDecision> statuses, LimiterConfig settings) {
    boolean regularOver = false;
    int quota = 0;
    int quotaOver = 0;
    for (int p = 0; p < plans.size(); p++) {
      boolean over = statuses.get(p).code() == Code.OVER_LIMIT;
      if (quotaMode(plans.get(p), settings.globalQuotaMode())) {
        quota++;
        quotaOver += over ? 1 : 0;
      } else {
        regularOver |= over;
      }
    }
    return regularOver || (quota > 0 && quotaOver == quota);
  }

  /**
   * @param from where the plan's usages start in {@code usages}, when it is still counted
   */
  private static DescriptorDecision statusOf(Plan plan, List<Usage> usages, int from) {
    if (plan instanceof Plan.Counted counted) {
      return statusOf(counted, usages, from);
    }
    if (plan instanceof Plan.Answered answered) {
      return statusOf(answered.counted(), answered.usages(), 0);
    }
    if (plan instanceof Plan.ByFailurePolicy policy) {
      return policy.status();
    }
    if (plan instanceof Plan.Unlimited) {
      return DescriptorDecision.UNLIMITED;
    }
    return DescriptorDecision.NOT_LIMITED;
  }

  /**
   * One status for all limits of a descriptor, as Envoy wants one: OVER_LIMIT when any refused;
   * {@code current_limit} and the reset from the limit that refused (the first if several did),
   * else from the one closest to running out; {@code limit_remaining} the least over all limits.
   *
   * @param from the descriptor's first usage in {@code usages}
   */
  private static DescriptorDecision statusOf(Plan.Counted counted, List<Usage> usages, int from) {
    int size = counted.counters().size();
    int chosen = governing(counted, usages, from);
    long remaining = Long.MAX_VALUE;
    for (int i = 0; i < size; i++) {
      remaining = Math.min(remaining, usages.get(from + i).remaining());
    }
    return status(counted, chosen, remaining, usages.get(from + chosen));
  }

  /**
   * The status of a counted descriptor whose counter {@code chosen} governs ({@link #governing}),
   * answered by {@code governing}, with the least {@code remaining} over all its limits.
   */
  private static DescriptorDecision status(
      Plan.Counted counted, int chosen, long remaining, Usage governing) {
    boolean over = governing.overLimit() && !counted.flags().shadowMode();
    return new DescriptorDecision(
        over ? Code.OVER_LIMIT : Code.OK,
        counted.counters().get(chosen).reported().present(),
        remaining,
        governing.untilResetMicros(),
        counted.limits());
  }

  /**
   * The answer of {@link dev.sluice.config.FailureMode#DENY}: over the limit, nothing known about
   * the window.
   */
  static DescriptorDecision denied(Plan.Counted counted) {
    Code code = counted.flags().shadowMode() ? Code.OK : Code.OVER_LIMIT;
    return new DescriptorDecision(
        code,
        counted.first().reported().present(),
        0,
        DescriptorDecision.NO_RESET,
        counted.limits());
  }

  /**
   * The counter that governs a descriptor's status: the first that refused, else the one with the
   * lowest remaining fraction of its capacity after this hit (the first on a tie).
   *
   * @return its index among the descriptor's counters
   */
  static int governing(Plan.Counted counted, List<Usage> usages, int from) {
    int chosen = 0;
    double lowest = Double.MAX_VALUE;
    for (int i = 0; i < counted.counters().size(); i++) {
      Usage usage = usages.get(from + i);
      if (usage.overLimit()) {
        return i;
      }
      long capacity = counted.hit(i).limit().capacity();
      double fraction = capacity == 0 ? 0 : usage.remaining() / (double) capacity;
      if (fraction < lowest) {
        lowest = fraction;
        chosen = i;
      }
    }
    return chosen;
  }

  /**
   * How the hits of limit {@code i} of a counted descriptor split, for its metric series.
   *
   * @param usage the usage that answered that limit
   * @param source who gave it
   */
  static RuleCounts counts(
      Plan.Counted counted, int i, Usage usage, Plan.Source source, HitAccounting accounting) {
    Hit hit = counted.hit(i);
    boolean shadow = counted.flags().shadowMode();
    if (source == Plan.Source.OVER_LIMIT_CACHE) {
      return HitAccounting.cachedOver(hit.hits(), shadow);
    }
    return accounting.counts(
        hit.limit(), hit.hits(), usage, shadow, refusedHitsCharged(counted, hit));
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
    if (plan instanceof Plan.Counted counted) {
      return counted.flags().quotaMode();
    }
    if (plan instanceof Plan.Answered answered) {
      return answered.counted().flags().quotaMode();
    }
    return plan instanceof Plan.ByFailurePolicy policy && policy.counted().flags().quotaMode();
  }
}
