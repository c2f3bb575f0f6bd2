package dev.sluice.limiter;

import dev.sluice.config.FailureMode;
import dev.sluice.config.LimiterConfig;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.CounterStore;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Decides one request, in these steps: take the rule snapshot once ({@link #decide}), plan each
 * descriptor ({@link Planner}), answer counters known to be over their limit from the local cache
 * ({@link #answerKnownOvers}), charge the rest in ONE store call, then {@link #finish}: the {@link
 * Verdict} (a pure function of the answered plans) and its metrics, recorded once. When the store
 * fails, the {@link FailureMode} answers instead ({@link #onStoreFailure}).
 *
 * <p>Threads: the store's answer is handled on {@link StoreChoice#completions}, chosen by the
 * composition root; the returned future completes there, so everything the caller chains on it
 * (response mapping, {@code onNext}) runs there too. Thread-safe: no per-request state is kept.
 */
public final class RateLimiter {
  private final Supplier<RuleSet> rules;
  private final StoreChoice stores;
  private final LimiterConfig settings;
  private final SluiceMetrics metrics;
  private final Planner planner;
  private final UnknownDomains unknownDomains;
  private final DecisionListener listener;

  /**
   * @param rules the current rule snapshot; read once per request
   */
  public RateLimiter(
      Supplier<RuleSet> rules, StoreChoice stores, LimiterConfig settings, SluiceMetrics metrics) {
    this(rules, stores, settings, metrics, DecisionListener.NONE);
  }

  /**
   * @param listener told about every counted descriptor, next to the metrics (the live page)
   */
  public RateLimiter(
      Supplier<RuleSet> rules,
      StoreChoice stores,
      LimiterConfig settings,
      SluiceMetrics metrics,
      DecisionListener listener) {
    this.listener = listener;
    this.rules = rules;
    this.stores = stores;
    this.settings = settings;
    this.metrics = metrics;
    this.planner = new Planner(settings.overrideAlgorithm());
    this.unknownDomains = new UnknownDomains(metrics);
    if (settings.failureMode() == FailureMode.LOCAL && stores.fallback().isEmpty()) {
      throw new IllegalArgumentException("failure mode local needs a fallback store");
    }
  }

  /**
   * Where hits are counted and where their answers are handled.
   *
   * @param fallback the in-process store used while {@code primary} fails, required for {@link
   *     FailureMode#LOCAL}
   * @param overLimitCache counters known to be over their limit
   * @param completions runs the return leg once the store answered: the decision, its metrics and
   *     whatever the caller chains on the returned future. {@code Runnable::run} keeps it on the
   *     thread that completed the store's future (for Redis, a lane's writer thread)
   */
  public record StoreChoice(
      CounterStore primary,
      Optional<CounterStore> fallback,
      OverLimitCache overLimitCache,
      Executor completions) {
    public StoreChoice {
      Objects.requireNonNull(primary, "primary");
      Objects.requireNonNull(fallback, "fallback");
      Objects.requireNonNull(overLimitCache, "overLimitCache");
      Objects.requireNonNull(completions, "completions");
    }

    /** Only {@code primary}: no fallback, no cache, the return leg on the store's thread. */
    public static StoreChoice of(CounterStore primary) {
      return new StoreChoice(primary, Optional.empty(), OverLimitCache.disabled(), Runnable::run);
    }
  }

  /**
   * Decides {@code call}. The future fails with a {@link StoreException} only when the store fails
   * and the failure mode is {@link FailureMode#ERROR}; nothing is thrown directly.
   */
  public CompletableFuture<Decision> decide(RateLimitCall call) {
    RuleSet snapshot = rules.get();
    if (!snapshot.hasDomain(call.domain())) {
      unknownDomains.seen(call.domain(), call.descriptors().size());
      return CompletableFuture.completedFuture(notLimited(call.descriptors().size()));
    }
    List<Plan> plans = answerKnownOvers(planner.plan(snapshot, call));
    List<Hit> hits = unanswered(plans);
    if (hits.isEmpty()) {
      return CompletableFuture.completedFuture(finish(call.domain(), plans));
    }
    return stores
        .primary()
        .acquire(hits)
        .thenApplyAsync(
            usages -> finish(call.domain(), answer(plans, usages, Plan.Source.STORE)),
            stores.completions())
        .exceptionallyCompose(failure -> onStoreFailure(call.domain(), plans, failure));
  }

  /** Counted plans whose counter the local cache knows to be over its limit become answered. */
  private List<Plan> answerKnownOvers(List<Plan> plans) {
    List<Plan> answered = new ArrayList<>(plans.size());
    for (Plan plan : plans) {
      Optional<Usage> known =
          plan instanceof Plan.Counted counted
              ? stores.overLimitCache().lookup(counted.hit())
              : Optional.empty();
      answered.add(
          known.isPresent()
              ? ((Plan.Counted) plan).answered(known.get(), Plan.Source.OVER_LIMIT_CACHE)
              : plan);
    }
    return answered;
  }

  /** The hits of the plans still waiting for an answer, in order. */
  private static List<Hit> unanswered(List<Plan> plans) {
    List<Hit> hits = new ArrayList<>(plans.size());
    for (Plan plan : plans) {
      if (plan instanceof Plan.Counted counted) {
        hits.add(counted.hit());
      }
    }
    return hits;
  }

  /** Answers each waiting plan, in order, with the next of {@code usages}. */
  private static List<Plan> answer(List<Plan> plans, List<Usage> usages, Plan.Source source) {
    Iterator<Usage> next = usages.iterator();
    List<Plan> answered = new ArrayList<>(plans.size());
    for (Plan plan : plans) {
      answered.add(
          plan instanceof Plan.Counted counted ? counted.answered(next.next(), source) : plan);
    }
    return answered;
  }

  /** Remembers new overs, decides, and records the decision's metrics once. */
  private Decision finish(String domain, List<Plan> plans) {
    for (Plan plan : plans) {
      if (plan instanceof Plan.Answered answered
          && answered.source() != Plan.Source.OVER_LIMIT_CACHE) {
        stores.overLimitCache().remember(answered.counted().hit(), answered.usage());
      }
    }
    Verdict verdict = Verdict.of(plans, settings);
    record(domain, verdict);
    return verdict.decision();
  }

  private void record(String domain, Verdict verdict) {
    for (Verdict.RuleOutcome outcome : verdict.outcomes()) {
      Plan.MetricLabel label = outcome.counted().metric();
      if (label.detailedPath().isPresent()) {
        metrics.detailedRuleOutcome(
            domain, label.rule(), label.detailedPath().get(), outcome.counts());
      } else {
        metrics.ruleOutcome(domain, label.rule(), outcome.counts());
      }
      listener.counted(
          new CountedOutcome(
              domain,
              label.rule(),
              outcome.counted().entries(),
              label.detailedPath().isPresent(),
              outcome.counts(),
              outcome.refused()));
    }
    if (verdict.shadowedByGlobal()) {
      metrics.globalShadowMode();
    }
  }

  private CompletableFuture<Decision> onStoreFailure(
      String domain, List<Plan> plans, Throwable failure) {
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    if (!(cause instanceof StoreException) || settings.failureMode() == FailureMode.ERROR) {
      return CompletableFuture.failedFuture(cause);
    }
    metrics.failurePolicyDecision(settings.failureMode().configName());
    return switch (settings.failureMode()) {
      case ALLOW ->
          CompletableFuture.completedFuture(
              byPolicy(plans, counted -> DescriptorDecision.NOT_LIMITED));
      case DENY -> CompletableFuture.completedFuture(byPolicy(plans, RateLimiter::denied));
      case LOCAL -> localDecision(domain, plans);
      case ERROR -> CompletableFuture.failedFuture(cause);
    };
  }

  /** Every counted descriptor answered by {@code policy}; nothing is recorded per rule. */
  private Decision byPolicy(List<Plan> plans, Function<Plan.Counted, DescriptorDecision> policy) {
    List<Plan> answered = new ArrayList<>(plans.size());
    for (Plan plan : plans) {
      Optional<Plan.Counted> counted = countedOf(plan);
      answered.add(
          counted.isPresent()
              ? new Plan.ByFailurePolicy(counted.get(), policy.apply(counted.get()))
              : plan);
    }
    Verdict verdict = Verdict.of(answered, settings);
    if (verdict.shadowedByGlobal()) {
      metrics.globalShadowMode();
    }
    return verdict.decision();
  }

  /** The answer of {@link FailureMode#DENY}: over the limit, nothing known about the window. */
  private static DescriptorDecision denied(Plan.Counted counted) {
    Code code = counted.flags().shadowMode() ? Code.OK : Code.OVER_LIMIT;
    return new DescriptorDecision(code, Optional.of(counted.limit()), 0, Optional.empty());
  }

  /**
   * {@link FailureMode#LOCAL}: every counted descriptor (those the cache answered too) against
   * {@code ceil(limit / instances)} in the in-process store.
   */
  private CompletableFuture<Decision> localDecision(String domain, List<Plan> plans) {
    List<Plan> waiting = new ArrayList<>(plans.size());
    List<Hit> shares = new ArrayList<>(plans.size());
    for (Plan plan : plans) {
      Optional<Plan.Counted> counted = countedOf(plan);
      waiting.add(counted.isPresent() ? counted.get() : plan);
      counted.ifPresent(c -> shares.add(localShare(c.hit())));
    }
    return stores
        .fallback()
        .orElseThrow()
        .acquire(shares)
        .thenApply(usages -> finish(domain, answer(waiting, usages, Plan.Source.FALLBACK)));
  }

  private Hit localShare(Hit hit) {
    return new Hit(hit.key(), hit.limit().share(settings.instances()), hit.hits());
  }

  /** The counted descriptor behind {@code plan}, whether or not it was answered yet. */
  private static Optional<Plan.Counted> countedOf(Plan plan) {
    if (plan instanceof Plan.Counted counted) {
      return Optional.of(counted);
    }
    if (plan instanceof Plan.Answered answered) {
      return Optional.of(answered.counted());
    }
    if (plan instanceof Plan.ByFailurePolicy policy) {
      return Optional.of(policy.counted());
    }
    return Optional.empty();
  }

  private static Decision notLimited(int descriptors) {
    List<DescriptorDecision> statuses = new ArrayList<>(descriptors);
    for (int i = 0; i < descriptors; i++) {
      statuses.add(DescriptorDecision.NOT_LIMITED);
    }
    return new Decision(Code.OK, statuses);
  }
}
