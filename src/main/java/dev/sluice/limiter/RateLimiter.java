package dev.sluice.limiter;

import dev.sluice.config.FailureMode;
import dev.sluice.config.LimiterConfig;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.Charge;
import dev.sluice.store.Charged;
import dev.sluice.store.CounterStore;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import java.util.ArrayList;
import java.util.Arrays;
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
 * ({@link #answerKnownOvers}), charge the rest in ONE store call, then {@link #finish}: the
 * decision ({@link Verdict}, a pure function of the plans and the usages that answer them) and its
 * metrics, recorded once, straight from the plans ({@link DecisionRecorder}). Every request takes
 * these steps, the usual one (one descriptor with one limit) too: a store that charges on the
 * calling thread answers {@link Charged.Now} and the decision is made there. When the store fails,
 * the {@link FailureMode} answers instead ({@link #onStoreFailure}).
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
  private final DecisionRecorder recorder;
  private final UnknownDomains unknownDomains;

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
    this.rules = rules;
    this.stores = stores;
    this.settings = settings;
    this.metrics = metrics;
    this.planner =
        new Planner(
            settings.overrideAlgorithm(),
            settings.chargeDenied(),
            Plan.RequestVotes.of(settings.globalShadowMode(), settings.globalQuotaMode()));
    this.recorder =
        new DecisionRecorder(metrics, new HitAccounting(settings.nearLimitRatio()), listener);
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
    return answer(call).future();
  }

  /**
   * Decides {@code call} as {@link #decide} does, answering with the decision itself when it was
   * made on the calling thread: no future for the usual in-process decision. A {@link Answer.Later}
   * completes as {@link #decide}'s future.
   */
  public Answer answer(RateLimitCall call) {
    RuleSet snapshot = rules.get();
    if (!snapshot.hasDomain(call.domain())) {
      unknownDomains.seen(call.domain(), call.descriptors().size());
      return notLimited(call.descriptors().size());
    }
    List<Plan> plans = answerKnownOvers(planner.plan(snapshot, call));
    Charge charge = chargeOf(plans);
    if (nothingToCharge(charge)) {
      return finish(call.domain(), plans, List.of(), Plan.Source.STORE);
    }
    return charge(call.domain(), plans, charge);
  }

  /**
   * The ONE store call: finished on this thread when the store answered on it ({@link Charged.Now},
   * the memory store, or a future already complete), else once its future completes, on {@link
   * StoreChoice#completions}.
   */
  private Answer charge(String domain, List<Plan> plans, Charge charge) {
    Charged charged;
    try {
      charged = stores.primary().charge(charge);
    } catch (RuntimeException failure) {
      return new Answer.Later(onStoreFailure(domain, plans, failure));
    }
    if (charged instanceof Charged.Now now) {
      return finish(domain, plans, now.usages(), Plan.Source.STORE);
    }
    CompletableFuture<List<Usage>> stored = charged.future();
    if (stored.isDone() && !stored.isCompletedExceptionally()) {
      // Answered before returning all the same: nothing to wait for, nothing to hand off.
      return finish(domain, plans, stored.join(), Plan.Source.STORE);
    }
    return new Answer.Later(
        stored
            .thenApplyAsync(
                usages -> finish(domain, plans, usages, Plan.Source.STORE), stores.completions())
            .exceptionallyCompose(failure -> onStoreFailure(domain, plans, failure)));
  }

  /** No hit in any group: {@code charge.hits().isEmpty()}, without building the list. */
  private static boolean nothingToCharge(Charge charge) {
    for (int g = 0; g < charge.size(); g++) {
      if (charge.group(g).hitCount() > 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Counted plans whose counter the local cache knows to be over its limit become answered. Only a
   * lone limit charged by its algorithm is cached: the other policies do not charge refused hits,
   * so a refusal says nothing about the next, smaller request.
   */
  private List<Plan> answerKnownOvers(List<Plan> plans) {
    List<Plan> answered = null; // a copy only once the cache answers one: it rarely does
    for (int i = 0; i < plans.size(); i++) {
      Plan plan = answerKnownOver(plans.get(i));
      if (plan != plans.get(i)) {
        if (answered == null) {
          answered = new ArrayList<>(plans);
        }
        answered.set(i, plan);
      }
    }
    return answered == null ? plans : answered;
  }

  /** {@code plan} answered by the local cache when it knows its counter over, else as it is. */
  private Plan answerKnownOver(Plan plan) {
    if (!(plan instanceof Plan.Counted counted) || counted.policy() != Charge.Policy.EACH) {
      return plan;
    }
    Optional<Usage> known = stores.overLimitCache().lookup(counted.firstHit());
    return known.isPresent()
        ? counted.answered(List.of(known.get()), Plan.Source.OVER_LIMIT_CACHE)
        : plan;
  }

  /**
   * What the store charges for the plans still waiting, in order: each one's group. Descriptors the
   * cache already refused join as answered groups only when a {@code charge_denied: false}
   * descriptor depends on them.
   */
  private Charge chargeOf(List<Plan> plans) {
    boolean dependent = false;
    boolean passingQuota = false;
    for (int i = 0; i < plans.size(); i++) {
      Plan plan = plans.get(i);
      dependent |=
          plan instanceof Plan.Counted counted && counted.policy() == Charge.Policy.WITH_REQUEST;
      passingQuota |= settings.globalQuotaMode() && plan instanceof Plan.NotLimited;
    }
    Plan.RequestVotes votes =
        Plan.RequestVotes.of(
            settings.globalShadowMode() || passingQuota, settings.globalQuotaMode());
    if (plans.size() == 1) {
      // The usual one-descriptor request: its plan's group is the whole charge.
      Charge.Group group = groupOf(plans.get(0), dependent, votes);
      return group == null ? Charge.of(List.of()) : group;
    }
    Charge.Group[] groups = new Charge.Group[plans.size()];
    int count = 0;
    for (int i = 0; i < plans.size(); i++) {
      Charge.Group group = groupOf(plans.get(i), dependent, votes);
      if (group != null) {
        groups[count++] = group;
      }
    }
    return Charge.of(List.of(count == groups.length ? groups : Arrays.copyOf(groups, count)));
  }

  /** What the store sees of one plan, or null when it takes no part in the charge. */
  private static Charge.Group groupOf(Plan plan, boolean dependent, Plan.RequestVotes votes) {
    if (plan instanceof Plan.Counted counted) {
      return counted.group(votes);
    }
    if (dependent && plan instanceof Plan.Answered cached) {
      Plan.Counted counted = cached.counted();
      return Charge.Group.answeredRefused(counted.tag(), counted.vote(votes));
    }
    return null;
  }

  /**
   * Decides, remembers new overs, and records the decision's metrics once, straight from the plans:
   * each plan still counted is answered by the next of {@code usages}, which {@code source} gave.
   */
  private Decision finish(String domain, List<Plan> plans, List<Usage> usages, Plan.Source source) {
    Decision decision = Verdict.decide(plans, usages, settings);
    int next = 0;
    for (int p = 0; p < plans.size(); p++) {
      Plan plan = plans.get(p);
      boolean refused = decision.statuses().get(p).code() == Code.OVER_LIMIT;
      if (plan instanceof Plan.Counted counted) {
        rememberOver(counted, usages.get(next));
        recorder.record(domain, counted, usages, next, source, refused);
        next += counted.counters().size();
      } else if (plan instanceof Plan.Answered answered) {
        recorder.record(
            domain, answered.counted(), answered.usages(), 0, answered.source(), refused);
      }
    }
    if (Verdict.shadowedByGlobal(plans, decision, settings)) {
      metrics.globalShadowMode();
    }
    return decision;
  }

  /** A lone limit charged by its algorithm that the store found over: the cache knows it now. */
  private void rememberOver(Plan.Counted counted, Usage first) {
    if (counted.policy() == Charge.Policy.EACH) {
      stores.overLimitCache().remember(counted.firstHit(), first);
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
      case DENY -> CompletableFuture.completedFuture(byPolicy(plans, Verdict::denied));
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
    Decision decision = Verdict.decide(answered, List.of(), settings);
    if (Verdict.shadowedByGlobal(answered, decision, settings)) {
      metrics.globalShadowMode();
    }
    return decision;
  }

  /**
   * {@link FailureMode#LOCAL}: every counted descriptor (those the cache answered too) against
   * {@code ceil(limit / instances)} in the in-process store.
   */
  private CompletableFuture<Decision> localDecision(String domain, List<Plan> plans) {
    List<Plan> waiting = new ArrayList<>(plans.size());
    for (Plan plan : plans) {
      Optional<Plan.Counted> counted = countedOf(plan);
      waiting.add(counted.isPresent() ? counted.get() : plan);
    }
    Charge shares = sharesOf(chargeOf(waiting));
    return stores
        .fallback()
        .orElseThrow()
        .charge(shares)
        .future()
        .thenApply(usages -> finish(domain, waiting, usages, Plan.Source.FALLBACK));
  }

  /** {@code charge} against {@code ceil(limit / instances)}: each hit's limit shared out. */
  private Charge sharesOf(Charge charge) {
    List<Charge.Group> groups = new ArrayList<>(charge.size());
    for (Charge.Group group : charge.groups()) {
      groups.add(group.withHits(group.hits().stream().map(this::localShare).toList()));
    }
    return Charge.of(groups);
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
