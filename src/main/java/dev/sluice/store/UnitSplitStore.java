package dev.sluice.store;

import dev.sluice.rules.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The reference's per-second Redis (REDIS_PERSECOND): hits of limits whose unit is {@code second}
 * (whatever its {@code unit_multiplier}: the unit decides) go to {@code perSecond}, all others to
 * {@code rest}. A request's hits are split once and each part is sent in one call, both at the same
 * time, so a request costs at most one round trip to each store and no more time than the slower of
 * the two. A request that has hits of only one kind touches only that store, so an outage of one
 * fails only the requests that need it (each store keeps its own breaker). Owns neither store:
 * closing this closes nothing. Thread-safe, stateless.
 */
public final class UnitSplitStore implements CounterStore {
  private final CounterStore rest;
  private final CounterStore perSecond;

  public UnitSplitStore(CounterStore rest, CounterStore perSecond) {
    this.rest = rest;
    this.perSecond = perSecond;
  }

  /**
   * Usages in the order of {@code charge.hits()}. A group goes to the per-second store when all its
   * limits are per second; a group mixing units stays on the main one. A charge that decides over
   * the whole request at once ({@code charge_denied: false}) and spans both goes whole to the main
   * store, so it stays one atomic step. Answered now when both parts are ({@link Charged#combine}),
   * else on the thread that completed the later of the two calls; it fails when either fails (hits
   * sent to the other may still have counted, as when a pipeline is cut off).
   */
  @Override
  public Charged charge(Charge charge) {
    List<Charge.Group> seconds = new ArrayList<>();
    List<Charge.Group> others = new ArrayList<>();
    boolean wholeRequest = false;
    for (Charge.Group group : charge.groups()) {
      (perSecond(group) ? seconds : others).add(group);
      wholeRequest |= group.policy() == Charge.Policy.WITH_REQUEST;
    }
    if (seconds.isEmpty() || (wholeRequest && !others.isEmpty())) {
      return rest.charge(charge);
    }
    if (others.isEmpty()) {
      return perSecond.charge(charge);
    }
    Charged fromRest = rest.charge(Charge.of(others));
    Charged fromPerSecond = perSecond.charge(Charge.of(seconds));
    return Charged.combine(fromRest, fromPerSecond, (a, b) -> merge(charge, a, b));
  }

  /** Puts the two parts back in request order: each part kept the order of its groups. */
  private static List<Usage> merge(Charge charge, List<Usage> rest, List<Usage> perSecond) {
    List<Usage> usages = new ArrayList<>(rest.size() + perSecond.size());
    int r = 0;
    int s = 0;
    for (Charge.Group group : charge.groups()) {
      for (int i = 0; i < group.hits().size(); i++) {
        usages.add(perSecond(group) ? perSecond.get(s++) : rest.get(r++));
      }
    }
    return usages;
  }

  private static boolean perSecond(Charge.Group group) {
    return !group.hits().isEmpty() && group.hits().stream().allMatch(UnitSplitStore::perSecond);
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
