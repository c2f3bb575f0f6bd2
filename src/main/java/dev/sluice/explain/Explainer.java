package dev.sluice.explain;

import dev.sluice.limiter.DescriptorRequest;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.limiter.RequestPreview;
import dev.sluice.limiter.RequestPreview.Previewed;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Match;
import dev.sluice.rules.MatchStep;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.CounterStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Explains requests against the current rules and a store. The matching trace comes from {@link
 * RuleSet#match(String, List, dev.sluice.rules.MatchTracer)}, the same walk requests take; the
 * counter keys and the effect of {@code replaces} come from {@link RequestPreview}, the request
 * path's own planning; counters are read with {@link CounterStore#inspect}, which never changes a
 * count. Thread-safe.
 */
public final class Explainer {
  private final Supplier<RuleSet> rules;
  private final CounterStore store;
  private final Algorithm overrideAlgorithm;

  /**
   * @param overrideAlgorithm the algorithm of client overrides ({@code --default-algorithm})
   */
  public Explainer(Supplier<RuleSet> rules, CounterStore store, Algorithm overrideAlgorithm) {
    this.rules = rules;
    this.store = store;
    this.overrideAlgorithm = overrideAlgorithm;
  }

  /** The explanation; the future fails when the store cannot be read. */
  public CompletableFuture<Explanation> explain(RateLimitCall call) {
    RuleSet snapshot = rules.get();
    if (!snapshot.hasDomain(call.domain())) {
      List<DescriptorExplanation> unknown = new ArrayList<>();
      for (DescriptorRequest d : call.descriptors()) {
        unknown.add(
            new DescriptorExplanation(
                d.entries(), List.of(), Optional.empty(), new Effect.UnknownDomain()));
      }
      return CompletableFuture.completedFuture(
          new Explanation(call.domain(), false, call.hitsAddend(), unknown));
    }
    List<Traced> traced = new ArrayList<>();
    for (DescriptorRequest descriptor : call.descriptors()) {
      traced.add(trace(snapshot, call.domain(), descriptor));
    }
    List<Previewed> previews = RequestPreview.of(snapshot, call, overrideAlgorithm);
    List<CompletableFuture<DescriptorExplanation>> explained = new ArrayList<>();
    for (int i = 0; i < traced.size(); i++) {
      explained.add(explainOne(call.descriptors().get(i), traced.get(i), previews.get(i), traced));
    }
    return CompletableFuture.allOf(explained.toArray(CompletableFuture[]::new))
        .thenApply(
            done ->
                new Explanation(
                    call.domain(),
                    true,
                    call.hitsAddend(),
                    explained.stream().map(CompletableFuture::join).toList()));
  }

  /** One descriptor's walk through the tree, as the matcher took it. */
  private record Traced(List<MatchStep> steps, Optional<Rule> rule) {}

  private static Traced trace(RuleSet snapshot, String domain, DescriptorRequest descriptor) {
    if (descriptor.override().isPresent()) {
      return new Traced(List.of(), Optional.empty());
    }
    List<MatchStep> steps = new ArrayList<>();
    Optional<Match> match = snapshot.match(domain, descriptor.entries(), steps::add);
    return new Traced(steps, match.map(Match::rule));
  }

  private CompletableFuture<DescriptorExplanation> explainOne(
      DescriptorRequest descriptor, Traced traced, Previewed preview, List<Traced> all) {
    Optional<Rule> rule = traced.rule();
    if (preview instanceof Previewed.Counted counted) {
      boolean shadow = rule.map(Rule::shadowMode).orElse(false);
      boolean quota = rule.map(r -> r.flags().quotaMode()).orElse(false);
      return store
          .inspect(counted.hit())
          .thenApply(
              state ->
                  new DescriptorExplanation(
                      descriptor.entries(),
                      traced.steps(),
                      rule,
                      new Effect.Counted(counted.hit(), counted.override(), shadow, quota, state)));
    }
    Effect effect;
    if (preview instanceof Previewed.Unlimited) {
      effect = new Effect.Unlimited();
    } else if (rule.isEmpty()) {
      effect = new Effect.NoMatch();
    } else if (rule.get().counted() || rule.get().unlimited()) {
      // The planner dropped a rule that limits: only replaces does that.
      effect = new Effect.Replaced(replacers(rule.get(), all));
    } else {
      effect = new Effect.NoRateLimit();
    }
    return CompletableFuture.completedFuture(
        new DescriptorExplanation(descriptor.entries(), traced.steps(), rule, effect));
  }

  /** Which rules of this request name {@code replaced} in their {@code replaces}. */
  private static List<String> replacers(Rule replaced, List<Traced> all) {
    return all.stream()
        .flatMap(t -> t.rule().stream())
        .filter(r -> r.replaces().contains(replaced.name()))
        .map(Rule::id)
        .distinct()
        .toList();
  }
}
