package dev.sluice.limiter;

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
  private final LimiterSettings settings;
  private final SluiceMetrics metrics;
  private final Planner planner;
  private final UnknownDomains unknownDomains;

  /**
   * @param rules the current rule snapshot; read once per request
   * @param fallback the in-process store used while {@code store} fails, required for {@link
   *     FailureMode#LOCAL}
   */
  public RateLimiter(
      Supplier<RuleSet> rules,
      StoreChoice stores,
      LimiterSettings settings,
      SluiceMetrics metrics) {
    this.rules = rules;
    this.store = stores.primary();
    this.fallback = stores.fallback();
    this.settings = settings;
    this.metrics = metrics;
    this.planner = new Planner(settings.overrideAlgorithm());
    this.unknownDomains = new UnknownDomains(metrics);
    if (settings.failureMode() == FailureMode.LOCAL && fallback.isEmpty()) {
      throw new IllegalArgumentException("failure mode local needs a fallback store");
    }
  }

  /** The store to count in, and the in-process one to fall back to in {@link FailureMode#LOCAL}. */
  public record StoreChoice(CounterStore primary, Optional<CounterStore> fallback) {
    public static StoreChoice of(CounterStore primary) {
      return new StoreChoice(primary, Optional.empty());
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
    List<Hit> hits = hitsOf(plan);
    if (hits.isEmpty()) {
      return CompletableFuture.completedFuture(finish(call.domain(), plan, List.of()));
    }
    return store
        .acquire(hits)
        .handle(
            (usages, failure) ->
                failure == null
                    ? CompletableFuture.completedFuture(finish(call.domain(), plan, usages))
                    : onStoreFailure(call.domain(), plan, hits, failure))
        .thenCompose(decision -> decision);
  }

  private static List<Hit> hitsOf(List<Planned> plan) {
    List<Hit> hits = new ArrayList<>(plan.size());
    for (Planned planned : plan) {
      if (planned.counted()) {
        hits.add(planned.hit());
      }
    }
    return hits;
  }

  private CompletableFuture<Decision> onStoreFailure(
      String domain, List<Planned> plan, List<Hit> hits, Throwable failure) {
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    if (!(cause instanceof StoreException) || settings.failureMode() == FailureMode.ERROR) {
      return CompletableFuture.failedFuture(cause);
    }
    metrics.failurePolicyDecision(settings.failureMode().configName());
    return switch (settings.failureMode()) {
      case ALLOW ->
          CompletableFuture.completedFuture(decisionOf(plan, p -> DescriptorDecision.NOT_LIMITED));
      case DENY -> CompletableFuture.completedFuture(decisionOf(plan, Planned::denied));
      case LOCAL -> localDecision(domain, plan, hits);
      case ERROR -> CompletableFuture.failedFuture(cause);
    };
  }

  private CompletableFuture<Decision> localDecision(
      String domain, List<Planned> plan, List<Hit> hits) {
    List<Hit> shares = new ArrayList<>(hits.size());
    for (Planned planned : plan) {
      if (planned.counted()) {
        shares.add(planned.localShare(settings.instances()));
      }
    }
    return fallback.orElseThrow().acquire(shares).thenApply(usages -> finish(domain, plan, usages));
  }

  private Decision decisionOf(
      List<Planned> plan, java.util.function.Function<Planned, DescriptorDecision> counted) {
    List<DescriptorDecision> statuses = new ArrayList<>(plan.size());
    for (Planned planned : plan) {
      statuses.add(planned.counted() ? counted.apply(planned) : planned.fixed());
    }
    return new Decision(overall(plan, statuses), statuses);
  }

  private Decision finish(String domain, List<Planned> plan, List<Usage> usages) {
    List<DescriptorDecision> statuses = new ArrayList<>(plan.size());
    int next = 0;
    for (Planned planned : plan) {
      if (planned.counted()) {
        Usage usage = usages.get(next++);
        statuses.add(planned.status(usage));
        record(domain, planned, usage);
      } else {
        statuses.add(planned.fixed());
      }
    }
    return new Decision(overall(plan, statuses), statuses);
  }

  private void record(String domain, Planned planned, Usage usage) {
    var counts =
        HitAccounting.of(planned.hit().limit(), planned.hit().hits(), usage, planned.shadowMode());
    if (planned.detailedMetric()) {
      metrics.detailedRuleOutcome(domain, planned.rule().path(), planned.metricRule(), counts);
    } else {
      metrics.ruleOutcome(domain, planned.metricRule(), counts);
    }
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
