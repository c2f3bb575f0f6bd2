package dev.sluice.consistency;

import dev.sluice.rules.Consistency;
import dev.sluice.store.Charge;
import dev.sluice.store.Charged;
import dev.sluice.store.CounterState;
import dev.sluice.store.CounterStore;
import dev.sluice.store.Hit;
import dev.sluice.store.LocalView;
import dev.sluice.store.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The store the limiter calls: each hit goes where its limit's {@link Consistency} counts it, and
 * the answers come back in the request's order. Exact hits make one call to {@code exact} (the
 * guarded shared store), as before; synced and split hits are answered here, on the caller's
 * thread. A request with only exact hits passes through unchanged; one with none makes no store
 * call. Thread-safe.
 *
 * <p>When the exact part fails, the whole request fails and the failure mode answers it; its synced
 * and split hits stay counted, as hits that happened.
 */
public final class ConsistencyRouter implements CounterStore {
  private final CounterStore exact;
  private final SyncedCounters synced;
  private final SplitCounters split;

  public ConsistencyRouter(CounterStore exact, SyncedCounters synced, SplitCounters split) {
    this.exact = exact;
    this.synced = synced;
    this.split = split;
  }

  /**
   * A charge of only exact hits goes to the shared store whole, so several limits on one descriptor
   * and {@code charge_denied: false} stay atomic there. Synced and split limits are counted each on
   * its own, as before: a charge that mixes them in is counted hit by hit (issue 12 leaves the
   * all-or-nothing rule to exact counters). The exact store's answer is passed on as it comes,
   * {@link Charged.Now} when it charged on the calling thread (memory), with the synced and split
   * usages merged in ({@link Charged#map}).
   */
  @Override
  public Charged charge(Charge charge) {
    if (allExact(charge)) {
      return exact.charge(charge);
    }
    List<Hit> hits = charge.hits();
    Usage[] usages = new Usage[hits.size()];
    List<Integer> exactAt = new ArrayList<>();
    List<Integer> splitAt = new ArrayList<>();
    for (int i = 0; i < hits.size(); i++) {
      Hit hit = hits.get(i);
      switch (hit.limit().consistency()) {
        case EXACT -> exactAt.add(i);
        case SPLIT -> splitAt.add(i);
        case SYNCED -> {
          Optional<Usage> local = synced.take(hit);
          if (local.isPresent()) {
            usages[i] = local.get();
          } else {
            exactAt.add(i);
          }
        }
      }
    }
    if (!splitAt.isEmpty()) {
      fill(usages, splitAt, split.acquire(pick(hits, splitAt)).join());
    }
    if (exactAt.isEmpty()) {
      return new Charged.Now(List.of(usages));
    }
    return exact
        .charge(Charge.independent(pick(hits, exactAt)))
        .map(
            answered -> {
              fill(usages, exactAt, answered);
              return List.of(usages);
            });
  }

  /**
   * Every hit of every group is exact: read from the groups, not {@link Charge#hits()}, which
   * collects a list on every request of several descriptors.
   */
  private static boolean allExact(Charge charge) {
    for (int g = 0; g < charge.size(); g++) {
      Charge.Group group = charge.group(g);
      for (int i = 0; i < group.hitCount(); i++) {
        if (group.hit(i).limit().consistency() != Consistency.EXACT) {
          return false;
        }
      }
    }
    return true;
  }

  private static List<Hit> pick(List<Hit> hits, List<Integer> positions) {
    List<Hit> picked = new ArrayList<>(positions.size());
    for (int i : positions) {
      picked.add(hits.get(i));
    }
    return picked;
  }

  private static void fill(Usage[] usages, List<Integer> positions, List<Usage> answered) {
    for (int i = 0; i < positions.size(); i++) {
      usages[positions.get(i)] = answered.get(i);
    }
  }

  /**
   * Synced: this instance's view (known global plus unsynced hits), or the shared counter when it
   * holds no slot for it. Split: this instance's counter against its share. Exact: the store.
   */
  @Override
  public CompletableFuture<CounterState> inspect(Hit hit) {
    return switch (hit.limit().consistency()) {
      case EXACT -> exact.inspect(hit);
      case SPLIT ->
          split
              .inspect(hit)
              .thenApply(
                  state ->
                      state.withLocal(new LocalView(Consistency.SPLIT, 0, 0, split.instances())));
      case SYNCED ->
          synced
              .inspect(hit)
              .map(
                  view ->
                      CompletableFuture.completedFuture(
                          view.local()
                              .withLocal(
                                  new LocalView(
                                      Consistency.SYNCED, view.knownGlobal(), view.unsynced(), 0))))
              .orElseGet(
                  () ->
                      exact
                          .inspect(hit)
                          .thenApply(
                              state ->
                                  state.withLocal(
                                      new LocalView(
                                          Consistency.SYNCED, state.usage().countAfter(), 0, 0))));
    };
  }

  /** Resets the shared counter; a split counter lives here, so it is this instance's. */
  @Override
  public CompletableFuture<CounterState> reset(Hit hit) {
    return hit.limit().consistency() == Consistency.SPLIT ? split.reset(hit) : exact.reset(hit);
  }

  @Override
  public void ping() {
    exact.ping();
  }

  @Override
  public String kind() {
    return exact.kind();
  }

  /** Closes nothing: the composition root closes each part in order. */
  @Override
  public void close() {}
}
