package dev.sluice.limiter;

import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Match;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.CounterKey;
import dev.sluice.store.CounterState;
import dev.sluice.store.CounterStore;
import dev.sluice.store.Hit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The operator's view of one counter: which rule a descriptor matches and what its counter holds,
 * found the same way a request finds it (same matching, same key), so what an operator inspects or
 * resets is exactly what requests count.
 */
public final class CounterAdmin {
  private final Supplier<RuleSet> rules;
  private final CounterStore store;

  public CounterAdmin(Supplier<RuleSet> rules, CounterStore store) {
    this.rules = rules;
    this.store = store;
  }

  /** A counted rule and its counter. */
  public record Found(Rule rule, CounterState counter) {}

  /**
   * The counter a descriptor's hits go to, without consuming; empty when no counted rule matches.
   */
  public CompletableFuture<Optional<Found>> inspect(String domain, List<Entry> entries) {
    return on(domain, entries, store::inspect);
  }

  /** Clears that counter; {@link CounterState#exists()} tells whether there was one. */
  public CompletableFuture<Optional<Found>> reset(String domain, List<Entry> entries) {
    return on(domain, entries, store::reset);
  }

  private CompletableFuture<Optional<Found>> on(
      String domain, List<Entry> entries, Function<Hit, CompletableFuture<CounterState>> action) {
    if (domain.isEmpty() || entries.isEmpty()) {
      throw new InvalidRequestException("a counter needs a domain and at least one entry");
    }
    Optional<Match> match = rules.get().match(domain, entries).filter(m -> m.rule().counted());
    if (match.isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    Rule rule = match.get().rule();
    Limit limit = rule.limit().orElseThrow();
    Hit hit = new Hit(CounterKey.of(domain, match.get().counterEntries(), limit), limit, 0);
    return action.apply(hit).thenApply(state -> Optional.of(new Found(rule, state)));
  }
}
