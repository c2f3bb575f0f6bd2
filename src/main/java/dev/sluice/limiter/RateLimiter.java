package dev.sluice.limiter;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Match;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.CounterKey;
import dev.sluice.store.CounterStore;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Decides one request. Thread-safe: it holds no per-request state, reads the current {@link
 * RuleSet} exactly once per request (so a reload mid-request cannot mix old and new rules), and
 * makes at most one store call per request, whatever the number of descriptors.
 */
public final class RateLimiter {
  private final Supplier<RuleSet> rules;
  private final CounterStore store;
  private final Algorithm overrideAlgorithm;

  /**
   * @param rules the current rule snapshot; read once per request
   * @param overrideAlgorithm how client-sent limit overrides are counted
   */
  public RateLimiter(Supplier<RuleSet> rules, CounterStore store, Algorithm overrideAlgorithm) {
    this.rules = rules;
    this.store = store;
    this.overrideAlgorithm = overrideAlgorithm;
  }

  /**
   * Decides {@code call}. The future fails with the store's exception when the store cannot answer;
   * nothing is thrown directly.
   */
  public CompletableFuture<Decision> decide(RateLimitCall call) {
    RuleSet snapshot = rules.get();
    List<Planned> plan = plan(snapshot, call);
    List<Hit> hits = new ArrayList<>(plan.size());
    for (Planned planned : plan) {
      if (planned.hit() != null) {
        hits.add(planned.hit());
      }
    }
    if (hits.isEmpty()) {
      return CompletableFuture.completedFuture(decide(plan, List.of()));
    }
    return store.acquire(hits).thenApply(usages -> decide(plan, usages));
  }

  private List<Planned> plan(RuleSet snapshot, RateLimitCall call) {
    boolean knownDomain = snapshot.hasDomain(call.domain());
    List<Optional<Match>> matches = new ArrayList<>(call.descriptors().size());
    for (DescriptorRequest descriptor : call.descriptors()) {
      // An override bypasses the rules for its descriptor: its rule's replaces must not apply.
      boolean byRules = knownDomain && descriptor.override().isEmpty();
      matches.add(byRules ? snapshot.match(call.domain(), descriptor.entries()) : Optional.empty());
    }
    Set<String> replaced = replacedNames(matches);
    List<Planned> plan = new ArrayList<>(matches.size());
    for (int i = 0; i < matches.size(); i++) {
      DescriptorRequest descriptor = call.descriptors().get(i);
      long hits = call.hitsFor(descriptor);
      if (knownDomain && descriptor.override().isPresent()) {
        plan.add(planOverride(call.domain(), descriptor, hits));
      } else {
        plan.add(planRule(call.domain(), matches.get(i), replaced, hits));
      }
    }
    return plan;
  }

  private static Set<String> replacedNames(List<Optional<Match>> matches) {
    Set<String> names = null;
    for (Optional<Match> match : matches) {
      if (match.isPresent() && !match.get().rule().replaces().isEmpty()) {
        if (names == null) {
          names = new HashSet<>();
        }
        names.addAll(match.get().rule().replaces());
      }
    }
    return names == null ? Set.of() : names;
  }

  private Planned planOverride(String domain, DescriptorRequest descriptor, long hits) {
    LimitOverride override = descriptor.override().orElseThrow();
    Limit limit = Limit.of(override.requestsPerUnit(), override.unit(), overrideAlgorithm);
    String key = CounterKey.of(domain, descriptor.entries(), limit);
    return Planned.counted(null, new CurrentLimit(limit, ""), new Hit(key, limit, hits));
  }

  private static Planned planRule(
      String domain, Optional<Match> match, Set<String> replaced, long hits) {
    if (match.isEmpty()) {
      return Planned.NOT_LIMITED;
    }
    Rule rule = match.get().rule();
    if (!rule.name().isEmpty() && replaced.contains(rule.name())) {
      return Planned.NOT_LIMITED;
    }
    if (rule.unlimited()) {
      return Planned.UNLIMITED;
    }
    if (rule.limit().isEmpty()) {
      return Planned.NOT_LIMITED;
    }
    Limit limit = rule.limit().get();
    String key = CounterKey.of(domain, match.get().counterEntries(), limit);
    return Planned.counted(rule, new CurrentLimit(limit, rule.name()), new Hit(key, limit, hits));
  }

  private static Decision decide(List<Planned> plan, List<Usage> usages) {
    List<DescriptorDecision> statuses = new ArrayList<>(plan.size());
    boolean regularOver = false;
    int quotaDescriptors = 0;
    int quotaOver = 0;
    int next = 0;
    for (Planned planned : plan) {
      DescriptorDecision status = planned.fixed;
      if (planned.hit() != null) {
        status = planned.status(usages.get(next++));
      }
      statuses.add(status);
      boolean over = status.code() == Code.OVER_LIMIT;
      if (planned.quotaMode()) {
        quotaDescriptors++;
        quotaOver += over ? 1 : 0;
      } else {
        regularOver |= over;
      }
    }
    boolean quotaExhausted = quotaDescriptors > 0 && quotaOver == quotaDescriptors;
    Code overall = regularOver || quotaExhausted ? Code.OVER_LIMIT : Code.OK;
    return new Decision(overall, statuses);
  }

  /**
   * What one descriptor will do: either a fixed answer, or a hit whose usage decides.
   *
   * @param rule null for a client override
   */
  private record Planned(Rule rule, CurrentLimit limit, Hit hit, DescriptorDecision fixed) {
    static final Planned NOT_LIMITED =
        new Planned(null, null, null, DescriptorDecision.NOT_LIMITED);
    static final Planned UNLIMITED = new Planned(null, null, null, DescriptorDecision.UNLIMITED);

    static Planned counted(Rule rule, CurrentLimit limit, Hit hit) {
      return new Planned(rule, limit, hit, null);
    }

    boolean quotaMode() {
      return rule != null && rule.flags().quotaMode();
    }

    DescriptorDecision status(Usage usage) {
      boolean shadow = rule != null && rule.shadowMode();
      Code code = usage.overLimit() && !shadow ? Code.OVER_LIMIT : Code.OK;
      return new DescriptorDecision(
          code, Optional.of(limit), usage.remaining(), Optional.of(usage.untilReset()));
    }
  }
}
