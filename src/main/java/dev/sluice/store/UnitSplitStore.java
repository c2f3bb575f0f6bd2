package dev.sluice.store;

import dev.sluice.rules.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The reference's per-second Redis (REDIS_PERSECOND): hits of limits whose unit is {@code second}
 * go to {@code perSecond}, all others to {@code rest}. A request's hits are split once and each
 * part is sent in one call, both at the same time, so a request costs at most one round trip to
 * each store and no more time than the slower of the two. A request that has hits of only one kind
 * touches only that store, so an outage of one fails only the requests that need it (each store
 * keeps its own breaker). Owns neither store: closing this closes nothing. Thread-safe, stateless.
 */
public final class UnitSplitStore implements CounterStore {
  private final CounterStore rest;
  private final CounterStore perSecond;

  public UnitSplitStore(CounterStore rest, CounterStore perSecond) {
    this.rest = rest;
    this.perSecond = perSecond;
  }

  /**
   * Usages in the order of {@code hits}. The future completes on the thread that completed the
   * later of the two calls; it fails when either fails (hits sent to the other may still have
   * counted, as when a pipeline is cut off).
   */
  @Override
  public CompletableFuture<List<Usage>> acquire(List<Hit> hits) {
    List<Hit> seconds = new ArrayList<>();
    List<Hit> others = new ArrayList<>();
    for (Hit hit : hits) {
      (perSecond(hit) ? seconds : others).add(hit);
    }
    if (seconds.isEmpty()) {
      return rest.acquire(hits);
    }
    if (others.isEmpty()) {
      return perSecond.acquire(hits);
    }
    CompletableFuture<List<Usage>> fromRest = rest.acquire(others);
    CompletableFuture<List<Usage>> fromPerSecond = perSecond.acquire(seconds);
    return fromRest.thenCombine(fromPerSecond, (a, b) -> merge(hits, a, b));
  }

  /** Puts the two parts back in request order: each part kept the order of its hits. */
  private static List<Usage> merge(List<Hit> hits, List<Usage> rest, List<Usage> perSecond) {
    List<Usage> usages = new ArrayList<>(hits.size());
    int r = 0;
    int s = 0;
    for (Hit hit : hits) {
      usages.add(perSecond(hit) ? perSecond.get(s++) : rest.get(r++));
    }
    return usages;
  }

  private static boolean perSecond(Hit hit) {
    return hit.limit().unit() == Unit.SECOND;
  }

  @Override
  public CompletableFuture<CounterState> inspect(Hit hit) {
    return (perSecond(hit) ? perSecond : rest).inspect(hit);
  }

  @Override
  public CompletableFuture<CounterState> reset(Hit hit) {
    return (perSecond(hit) ? perSecond : rest).reset(hit);
  }

  /** Both must answer. */
  @Override
  public void ping() {
    rest.ping();
    perSecond.ping();
  }

  @Override
  public String kind() {
    return rest.kind();
  }

  /** Owns neither store. */
  @Override
  public void close() {}
}
