package dev.sluice.limiter;

import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Entry;
import dev.sluice.rules.RuleFlags;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one descriptor of a request does, and later what answered it. The planner makes {@link
 * NotLimited}, {@link Unlimited} or {@link Counted}; a counted plan becomes {@link Answered} once
 * the local cache or a store gave its usage, or {@link ByFailurePolicy} when the store failed. The
 * decision ({@link Verdict}) is a pure function of the finished plans.
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
   * A hit to charge against a rule or a client's override.
   *
   * @param flags the rule's switches; {@link RuleFlags#NONE} for an override
   * @param metric where the outcome is recorded
   * @param entries the request descriptor's own entries, for a {@link DecisionListener}
   */
  record Counted(
      Hit hit, CurrentLimit limit, RuleFlags flags, MetricLabel metric, List<Entry> entries)
      implements Plan {
    public Counted {
      entries = List.copyOf(entries);
      Objects.requireNonNull(hit, "hit");
      Objects.requireNonNull(limit, "limit");
      Objects.requireNonNull(flags, "flags");
      Objects.requireNonNull(metric, "metric");
    }

    Answered answered(Usage usage, Source source) {
      return new Answered(this, usage, source);
    }
  }

  /** A counted descriptor and the usage that answers it. */
  record Answered(Counted counted, Usage usage, Source source) implements Plan {
    public Answered {
      Objects.requireNonNull(counted, "counted");
      Objects.requireNonNull(usage, "usage");
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
