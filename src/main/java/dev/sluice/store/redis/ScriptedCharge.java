package dev.sluice.store.redis;

import dev.sluice.store.Charge;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.ChargeScript;
import dev.sluice.store.algorithm.CountingAlgorithm;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link Charge} that is more than independent hits, on Redis ({@code lua/charge.lua}), sent
 * through the store's {@link HitDispatch} (so a cluster's redirects are followed as for hits): each
 * script run goes as one "hit" keyed by its group's tag, which routes it to the slot all of the
 * group's keys share.
 *
 * <ul>
 *   <li>One server (or a sentinel's master): the whole charge is one script, one round trip; Redis
 *       runs a script alone, so it is atomic over all the request's keys.
 *   <li>A cluster, groups independent ({@code rate_limits} with {@code charge_denied} true): one
 *       script per group, each in its group's slot, all sent at once.
 *   <li>A cluster, {@code charge_denied: false}: a script can only touch one slot, so
 *       charge-then-refund. Each group is charged on its node if it fits by itself; once every node
 *       answered, {@link Charge#decide} says what the request keeps, and what a refused request
 *       must not keep is given back ({@code lua/refund.lua}) before the answer. It never admits
 *       more than a limit allows: a hit is only charged if it fitted at the moment it was counted,
 *       and a refund only removes hits of a request that was refused, so a counter never holds
 *       fewer hits than the requests it admitted. Between charge and refund other requests see
 *       those hits and can be refused though they would have fit: false refusals, at most the hits
 *       of the refused requests in flight on the same counter at that moment.
 * </ul>
 *
 * Thread-safe; the futures complete on lane threads, like the rest of the store.
 */
final class ScriptedCharge {
  private final HitDispatch dispatch;
  private final boolean cluster;

  /**
   * @param cluster every script must stay within one slot
   */
  ScriptedCharge(HitDispatch dispatch, boolean cluster) {
    this.dispatch = dispatch;
    this.cluster = cluster;
  }

  CompletableFuture<List<Usage>> acquire(Charge charge, long nowMillis) {
    List<Charge.Group> counted = charge.groups().stream().filter(g -> !g.answered()).toList();
    if (counted.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    if (!cluster) {
      return run(List.of(charge.groups()), nowMillis).thenApply(ScriptedCharge::usages);
    }
    if (charge.groupsIndependent()) {
      return run(each(counted), nowMillis).thenApply(ScriptedCharge::usages);
    }
    List<Charge.Group> alone = new ArrayList<>(counted.size());
    for (Charge.Group group : counted) {
      // Charged if it fits by itself; whether the request keeps it is decided once all answered.
      Charge.Policy policy =
          group.policy() == Charge.Policy.WITH_REQUEST ? Charge.Policy.TOGETHER : group.policy();
      alone.add(Charge.Group.of(group.tag(), group.hits(), policy, group.vote()));
    }
    return run(each(alone), nowMillis).thenCompose(answers -> refundRefused(charge, answers));
  }

  private static List<List<Charge.Group>> each(List<Charge.Group> groups) {
    return groups.stream().map(List::of).toList();
  }

  /**
   * One script run per element of {@code runs}, each routed by its first counted group's tag, all
   * sent at once; the answers in order, flattened.
   */
  private CompletableFuture<List<ChargeScript.Counted>> run(
      List<List<Charge.Group>> runs, long nowMillis) {
    Map<Hit, List<Charge.Group>> byRoute = new IdentityHashMap<>();
    List<Hit> routes = new ArrayList<>(runs.size());
    for (List<Charge.Group> groups : runs) {
      Hit route = routed(groups.stream().filter(g -> !g.answered()).findFirst().orElseThrow());
      byRoute.put(route, groups);
      routes.add(route);
    }
    return dispatch
        .send(routes, (batch, route) -> ChargeScript.queue(batch, byRoute.get(route), nowMillis))
        .thenApply(
            answers -> {
              List<ChargeScript.Counted> all = new ArrayList<>();
              answers.forEach(all::addAll);
              return all;
            });
  }

  /** Decides over every node's answer and gives back what the request must not keep. */
  private CompletableFuture<List<Usage>> refundRefused(
      Charge charge, List<ChargeScript.Counted> answers) {
    List<Charge.Group> groups = charge.groups();
    boolean[][] fits = new boolean[groups.size()][];
    boolean[][] chargesRefused = new boolean[groups.size()][];
    int at = 0;
    for (int g = 0; g < groups.size(); g++) {
      List<Hit> hits = groups.get(g).hits();
      fits[g] = new boolean[hits.size()];
      chargesRefused[g] = new boolean[hits.size()];
      for (int i = 0; i < hits.size(); i++) {
        fits[g][i] = answers.get(at + i).fits();
        chargesRefused[g][i] =
            CountingAlgorithm.of(hits.get(i).limit().algorithm()).chargesRefusedHits();
      }
      at += hits.size();
    }
    boolean[][] keep = Charge.decide(charge, fits, chargesRefused);
    List<Usage> usages = new ArrayList<>(answers.size());
    Map<Hit, List<ChargeScript.Refund>> refunds = new IdentityHashMap<>();
    List<Hit> routes = new ArrayList<>();
    at = 0;
    for (int g = 0; g < groups.size(); g++) {
      Charge.Group group = groups.get(g);
      List<ChargeScript.Refund> back = new ArrayList<>();
      for (int i = 0; i < group.hits().size(); i++) {
        ChargeScript.Counted answer = answers.get(at + i);
        Hit hit = group.hits().get(i);
        if (answer.charged() && !keep[g][i]) {
          back.add(new ChargeScript.Refund(hit, answer.key(), answer.index()));
          usages.add(refunded(hit, answer.usage()));
        } else {
          usages.add(answer.usage());
        }
      }
      if (!back.isEmpty()) {
        Hit route = routed(group);
        refunds.put(route, back);
        routes.add(route);
      }
      at += group.hits().size();
    }
    if (routes.isEmpty()) {
      return CompletableFuture.completedFuture(usages);
    }
    return dispatch
        .send(routes, (batch, route) -> ChargeScript.refund(batch, refunds.get(route)))
        .thenApply(done -> usages);
  }

  /** What a refunded hit reports: what is left once it was given back, as if never charged. */
  private static Usage refunded(Hit hit, Usage charged) {
    long left = Math.min(hit.limit().capacity(), charged.remaining() + hit.hits());
    return new Usage(charged.overLimit(), left, charged.untilResetMicros(), charged.countAfter());
  }

  /** A hit keyed by the group's tag: the dispatch sends it to the slot of the group's keys. */
  private static Hit routed(Charge.Group group) {
    return new Hit(group.tag(), group.hits().get(0).limit(), 0);
  }

  private static List<Usage> usages(List<ChargeScript.Counted> counted) {
    return counted.stream().map(ChargeScript.Counted::usage).toList();
  }
}
