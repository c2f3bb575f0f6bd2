package dev.sluice.limiter;

import dev.sluice.config.FailureMode;
import dev.sluice.config.LimiterConfig;
import dev.sluice.metrics.RuleCounts;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.CounterStore;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Decides one request. Thread-safe: it holds no per-request state, reads the current {@link
 * RuleSet} exactly once per request (so a reload mid-request cannot mix old and new rules), and
 * makes at most one store call per request, whatever the number of descriptors. When the store
 * fails, the {@link FailureMode} decides the answer.
 */
public final class RateLimiter {
  private final Supplier<RuleSet> rules;
  private final CounterStore store;
  private final Optional<CounterStore> fallback;
  private final OverLimitCache overLimit;
  private final LimiterConfig settings;
  private final SluiceMetrics metrics;
  private final Planner planner;
  private final UnknownDomains unknownDomains;
  private final DecisionListener listener;

  /**
   * @param rules the current rule snapshot; read once per request
   * @param fallback the in-process store used while {@code store} fails, required for {@link
   *     FailureMode#LOCAL}
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
    this.store = stores.primary();
    this.fallback = stores.fallback();
    this.overLimit = stores.overLimitCache();
    this.settings = settings;
    this.metrics = metrics;
    this.planner = new Planner(settings.overrideAlgorithm());
    this.unknownDomains = new UnknownDomains(metrics);
    if (settings.failureMode() == FailureMode.LOCAL && fallback.isEmpty()) {
      throw new IllegalArgumentException("failure mode local needs a fallback store");
    }
  }

  /**
   * Where hits are counted: the store, the in-process one to fall back to in {@link
   * FailureMode#LOCAL}, and the local cache of counters known to be over their limit.
   */
  public record StoreChoice(
      CounterStore primary, Optional<CounterStore> fallback, OverLimitCache overLimitCache) {
    public static StoreChoice of(CounterStore primary) {
      return new StoreChoice(primary, Optional.empty(), OverLimitCache.disabled());
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
    List<Planned> plan = planner.plan(snapshot, call);
    Usage[] usages = new Usage[plan.size()];
    boolean[] cached = new boolean[plan.size()];
    List<Hit> hits = toStore(plan, usages, cached);
    if (hits.isEmpty()) {
      return CompletableFuture.completedFuture(finish(call, plan, usages, cached));
    }
    return store
        .acquire(hits)
        .thenApply(answers -> finish(call, plan, merge(plan, usages, cached, answers), cached))
        .exceptionallyCompose(failure -> onStoreFailure(call, plan, hits, failure));
  }

  /**
   * The hits the store must see. Counters the local cache knows to be over their limit are answered
   * here instead ({@code usages} and {@code cached} filled in).
   */
  private List<Hit> toStore(List<Planned> plan, Usage[] usages, boolean[] cached) {
    List<Hit> hits = new ArrayList<>(plan.size());
    for (int i = 0; i < plan.size(); i++) {
      Planned planned = plan.get(i);
      if (!planned.counted()) {
        continue;
      }
      Optional<Usage> known =
          overLimit.enabled() ? overLimit.lookup(planned.hit()) : Optional.empty();
      if (overLimit.enabled()) {
        metrics.localCacheLookup(known.isPresent());
      }
      if (known.isPresent()) {
        usages[i] = known.get();
        cached[i] = true;
      } else {
        hits.add(planned.hit());
      }
    }
    return hits;
  }

  /** Places the store's answers (in hit order) next to the cached ones, remembering new overs. */
  private Usage[] merge(List<Planned> plan, Usage[] usages, boolean[] cached, List<Usage> answers) {
    int next = 0;
    for (int i = 0; i < plan.size(); i++) {
      if (plan.get(i).counted() && !cached[i]) {
        usages[i] = answers.get(next++);
        if (overLimit.enabled()) {
          overLimit.remember(plan.get(i).hit(), usages[i]);
        }
      }
    }
    return usages;
  }

  private CompletableFuture<Decision> onStoreFailure(
      RateLimitCall call, List<Planned> plan, List<Hit> hits, Throwable failure) {
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    if (!(cause instanceof StoreException) || settings.failureMode() == FailureMode.ERROR) {
      return CompletableFuture.failedFuture(cause);
    }
    metrics.failurePolicyDecision(settings.failureMode().configName());
    return switch (settings.failureMode()) {
      case ALLOW ->
          CompletableFuture.completedFuture(decisionOf(plan, p -> DescriptorDecision.NOT_LIMITED));
      case DENY -> CompletableFuture.completedFuture(decisionOf(plan, Planned::denied));
      case LOCAL -> localDecision(call, plan, hits);
      case ERROR -> CompletableFuture.failedFuture(cause);
    };
  }

  private CompletableFuture<Decision> localDecision(
      RateLimitCall call, List<Planned> plan, List<Hit> hits) {
    List<Hit> shares = new ArrayList<>(hits.size());
    for (Planned planned : plan) {
      if (planned.counted()) {
        shares.add(planned.localShare(settings.instances()));
      }
    }
    boolean[] none = new boolean[plan.size()];
    return fallback
        .orElseThrow()
        .acquire(shares)
        .thenApply(
            answers ->
                finish(call, plan, merge(plan, new Usage[plan.size()], none, answers), none));
  }

  private Decision decisionOf(
      List<Planned> plan, java.util.function.Function<Planned, DescriptorDecision> counted) {
    List<DescriptorDecision> statuses = new ArrayList<>(plan.size());
    for (Planned planned : plan) {
      statuses.add(planned.counted() ? counted.apply(planned) : planned.fixed());
    }
    return new Decision(overall(plan, statuses), statuses);
  }

  private Decision finish(
      RateLimitCall call, List<Planned> plan, Usage[] usages, boolean[] cached) {
    List<DescriptorDecision> statuses = new ArrayList<>(plan.size());
    for (int i = 0; i < plan.size(); i++) {
      Planned planned = plan.get(i);
      if (planned.counted()) {
        DescriptorDecision status = planned.status(usages[i]);
        statuses.add(status);
        RuleCounts counts = record(call.domain(), planned, usages[i], cached[i]);
        listener.counted(
            new CountedOutcome(
                call.domain(),
                planned.rule() == null ? Planned.OVERRIDE_LABEL : planned.rule().path(),
                call.descriptors().get(i).entries(),
                planned.detailedMetric(),
                counts,
                status.code() == Code.OVER_LIMIT));
      } else {
        statuses.add(planned.fixed());
      }
    }
    return new Decision(overall(plan, statuses), statuses);
  }

  private RuleCounts record(String domain, Planned planned, Usage usage, boolean cached) {
    var counts =
        cached
            ? HitAccounting.cachedOver(planned.hit().hits(), planned.shadowMode())
            : HitAccounting.of(
                planned.hit().limit(), planned.hit().hits(), usage, planned.shadowMode());
    if (planned.detailedMetric()) {
      metrics.detailedRuleOutcome(domain, planned.rule().path(), planned.metricRule(), counts);
    } else {
      metrics.ruleOutcome(domain, planned.metricRule(), counts);
    }
    return counts;
  }

  /**
   * OVER_LIMIT when a regular descriptor is over, or when every quota-mode descriptor is; then
   * global shadow mode turns OVER_LIMIT into OK (statuses unchanged).
   */
  private Code overall(List<Planned> plan, List<DescriptorDecision> statuses) {
    boolean regularOver = false;
    int quota = 0;
    int quotaOver = 0;
    for (int i = 0; i < plan.size(); i++) {
      boolean over = statuses.get(i).code() == Code.OVER_LIMIT;
      if (plan.get(i).quotaMode()) {
        quota++;
        quotaOver += over ? 1 : 0;
      } else {
        regularOver |= over;
      }
    }
    boolean overLimit = regularOver || (quota > 0 && quotaOver == quota);
    if (overLimit && settings.globalShadowMode()) {
      metrics.globalShadowMode();
      return Code.OK;
    }
    return overLimit ? Code.OVER_LIMIT : Code.OK;
  }

  private static Decision notLimited(int descriptors) {
    List<DescriptorDecision> statuses = new ArrayList<>(descriptors);
    for (int i = 0; i < descriptors; i++) {
      statuses.add(DescriptorDecision.NOT_LIMITED);
    }
    return new Decision(Code.OK, statuses);
  }
}
