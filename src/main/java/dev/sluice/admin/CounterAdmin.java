package dev.sluice.admin;

import dev.sluice.limiter.InvalidRequestException;
import dev.sluice.limiter.Planner;
import dev.sluice.metrics.DetailedLabel;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.CounterState;
import dev.sluice.store.CounterStore;
import dev.sluice.store.Hit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The operator's view of one counter. The rule and the key come from {@link Planner#counterOf}, the
 * request path's own planning, so a change to how keys are built cannot make inspect or reset touch
 * another counter than the one requests count. Also what a {@code detailed_metric} series' label in
 * {@code /metrics} stands for, since a long request value is cut there.
 */
public final class CounterAdmin {
  private final Supplier<RuleSet> rules;
  private final CounterStore store;
  private final BiFunction<String, String, Optional<DetailedLabel>> metricLabels;

  /**
   * @param metricLabels by domain and label, what a detailed series' label stands for ({@code
   *     SluiceMetrics::detailedLabel})
   */
  public CounterAdmin(
      Supplier<RuleSet> rules,
      CounterStore store,
      BiFunction<String, String, Optional<DetailedLabel>> metricLabels) {
    this.rules = rules;
    this.store = store;
    this.metricLabels = metricLabels;
  }

  /** The rule and whole request value behind a detailed series' {@code label} in {@code domain}. */
  public Optional<DetailedLabel> metricLabel(String domain, String label) {
    return metricLabels.apply(domain, label);
  }

  /** A counted rule and its counter. */
  public record Found(Rule rule, CounterState counter) {}

  /**
   * The counter a descriptor's hits go to, without consuming; empty when no counted rule matches.
   *
   * @throws InvalidRequestException for an empty domain or no entries
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
    Optional<Planner.RuleCounter> target = Planner.counterOf(rules.get(), domain, entries);
    if (target.isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    Rule rule = target.get().rule();
    return action.apply(target.get().hit()).thenApply(state -> Optional.of(new Found(rule, state)));
  }
}
