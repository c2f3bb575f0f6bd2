package dev.sluice.limiter;

import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Entry;
import dev.sluice.rules.RuleFlags;
import dev.sluice.store.Charge;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one descriptor of a request does, and later what answered it. The planner makes {@link
 * NotLimited}, {@link Unlimited} or {@link Counted}; a counted plan becomes {@link Answered} when
 * the local over-limit cache answers it, or {@link ByFailurePolicy} when the store failed. The
 * decision ({@link Verdict}) is a pure function of the plans and the usages the store answered for
 * the counted ones (no answered plan is built for those: issue 16).
 */
sealed interface Plan
    permits Plan.NotLimited, Plan.Unlimited, Plan.Counted, Plan.Answered, Plan.ByFailurePolicy {

  /** No rule applies: unknown key, a node without rate_limit, or a rule another one replaced. */
  record NotLimited() implements Plan {}

  /** An {@code unlimited: true} rule. */
  record Unlimited() implements Plan {}

  Plan NOT_LIMITED = new NotLimited();
  Plan UNLIMITED = new Unlimited();

  /**
   * How one limit of a counted descriptor is reported and recorded; its hit is the one at the same
   * index of {@link Counted#hits}. Holds nothing of the request unless the metric series names
   * request values, so a single-limit rule's list of one is built once ({@link RuleParts}).
   *
   * @param reported the limit reported back, in the forms a {@link DescriptorDecision} holds it
   * @param metric where the outcome is recorded
   */
  record Counter(Reported reported, MetricLabel metric) {
    public Counter {
      Objects.requireNonNull(reported, "reported");
      Objects.requireNonNull(metric, "metric");
    }

    /** The limit reported back. */
    CurrentLimit limit() {
      return reported.limit();
    }
  }

  /**
   * A limit as a decision reports it: alone, as a present {@code current_limit}, and as the only
   * policy of its descriptor. Immutable, so a rule's one instance ({@link Planner}) serves every
   * request of it instead of three objects each.
   */
  record Reported(CurrentLimit limit, Optional<CurrentLimit> present, List<CurrentLimit> alone) {
    static Reported of(CurrentLimit limit) {
      return new Reported(limit, Optional.of(limit), List.of(limit));
    }
  }

  /**
   * The hits to charge against a rule (one limit, or a {@code rate_limits} list) or a client's
   * override, as the store's {@link Charge.Group}: the planner builds it once, with the vote the
   * service settings give a descriptor ({@link Planner}), and the usual request, one descriptor,
   * hands it to the store as its whole charge, with nothing built around it.
   *
   * @param group the descriptor's hits, one per limit, in list order (never empty, never answered)
   *     under its key tag and charge policy
   * @param counters how each limit of the group's hits is reported and recorded, at the same index
   * @param flags the rule's switches; {@link RuleFlags#NONE} for an override
   * @param entries the request descriptor's own entries, for a {@link DecisionListener}
   */
  record Counted(Charge.Group group, List<Counter> counters, RuleFlags flags, List<Entry> entries)
      implements Plan {
    public Counted {
      Objects.requireNonNull(group, "group");
      counters = List.copyOf(counters);
      if (group.answered()) {
        throw new IllegalArgumentException("a counted descriptor has at least one limit");
      }
      if (group.hitCount() != counters.size()) {
        throw new IllegalArgumentException(
            group.hitCount() + " hits for " + counters.size() + " limits");
      }
      Objects.requireNonNull(flags, "flags");
      entries = List.copyOf(entries);
    }

    /** The key tag every counter's key extends ({@link Charge.Group#tag}). */
    String tag() {
      return group.tag();
    }

    /** One hit per limit, in list order: a list built for a lone limit ({@link #hit}). */
    List<Hit> hits() {
      return group.hits();
    }

    /** The hit of limit {@code i}. */
    Hit hit(int i) {
      return group.hit(i);
    }

    /** How the store charges the hits. */
    Charge.Policy policy() {
      return group.policy();
    }

    /** Every limit, in counter order: the policies reported back. */
    List<CurrentLimit> limits() {
      if (counters.size() == 1) {
        return counters.get(0).reported().alone();
      }
      CurrentLimit[] limits = new CurrentLimit[counters.size()];
      for (int i = 0; i < limits.length; i++) {
        limits[i] = counters.get(i).limit();
      }
      return List.of(limits);
    }

    /** The one counter of a descriptor with a single limit; the first of several. */
    Counter first() {
      return counters.get(0);
    }

    /** The hit of {@link #first}. */
    Hit firstHit() {
      return group.hit(0);
    }

    /**
     * How the store sees this descriptor in a request with {@code votes}: its own group, unless the
     * request's votes give it another vote than the settings alone (global quota mode beside a
     * descriptor no rule limits).
     */
    Charge.Group group(RequestVotes votes) {
      Charge.Vote vote = vote(votes);
      return vote == group.vote()
          ? group
          : Charge.Group.of(group.tag(), group.hits(), group.policy(), vote);
    }

    /** How this descriptor's refusal counts towards refusing the request ({@link Verdict}). */
    Charge.Vote vote(RequestVotes votes) {
      return vote(flags, votes);
    }

    /** The vote of a descriptor with {@code flags} in a request with {@code votes}. */
    static Charge.Vote vote(RuleFlags flags, RequestVotes votes) {
      if (flags.shadowMode() || votes.neverRefused()) {
        return Charge.Vote.NONE;
      }
      return flags.quotaMode() || votes.allQuota() ? Charge.Vote.QUOTA : Charge.Vote.REGULAR;
    }

    Answered answered(List<Usage> usages, Source source) {
      return new Answered(this, usages, source);
    }
  }

  /**
   * What the service settings do to every descriptor's vote in one request, as {@link Verdict}
   * decides.
   *
   * @param neverRefused global shadow mode, or global quota mode with a descriptor that no rule
   *     limits (it counts as a passing quota descriptor)
   * @param allQuota global quota mode
   */
  record RequestVotes(boolean neverRefused, boolean allQuota) {
    private static final RequestVotes[] SHARED = {
      new RequestVotes(false, false),
      new RequestVotes(false, true),
      new RequestVotes(true, false),
      new RequestVotes(true, true)
    };

    /** The shared value: a record is a value, and one is needed on every request. */
    static RequestVotes of(boolean neverRefused, boolean allQuota) {
      return SHARED[(neverRefused ? 2 : 0) + (allQuota ? 1 : 0)];
    }
  }

  /** A counted descriptor and the usages that answer it, one per counter. */
  record Answered(Counted counted, List<Usage> usages, Source source) implements Plan {
    public Answered {
      Objects.requireNonNull(counted, "counted");
      usages = List.copyOf(usages);
      if (usages.size() != counted.counters().size()) {
        throw new IllegalArgumentException(
            usages.size() + " usages for " + counted.counters().size() + " counters");
      }
      Objects.requireNonNull(source, "source");
    }
  }

  /** A counted descriptor the failure policy answered because the store failed. */
  record ByFailurePolicy(Counted counted, DescriptorDecision status) implements Plan {}

  /** Who gave an {@link Answered}'s usage. */
  enum Source {
    /** The store, for this request. */
    STORE,
    /** The local cache of counters known to be over their limit; the store was not asked. */
    OVER_LIMIT_CACHE,
    /**
     * The in-process fallback store of {@link dev.sluice.config.FailureMode#LOCAL}, against the
     * local share.
     */
    FALLBACK
  }

  /**
   * The metric series a counted descriptor is recorded under.
   *
   * @param rule the configured rule's path, or {@code _override}
   * @param detailedPath the request-value path of a {@code detailed_metric} rule, capped by metrics
   */
  record MetricLabel(String rule, Optional<String> detailedPath) {
    static final MetricLabel OVERRIDE =
        new MetricLabel(SluiceMetrics.OVERRIDE_RULE, Optional.empty());

    public MetricLabel {
      Objects.requireNonNull(rule, "rule");
      Objects.requireNonNull(detailedPath, "detailedPath");
    }
  }
}
