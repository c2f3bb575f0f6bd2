package dev.sluice.rlqs;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The demands of this instance's clients per counter ({@link BucketPlan.Divided#group}), the
 * demands of the other instances' clients as the last {@link DemandBoard} exchange returned them,
 * and the division of each rule's rate over both. Thread-safe: reports update it on gRPC threads,
 * the exchange runs on the scheduler; each group's maps are concurrent and a division reads them
 * once.
 */
final class QuotaBook {
  /** A demand under this share of an equal split counts as this much, so no share is zero. */
  private static final double DEMAND_FLOOR = 0.01;

  private final Map<String, Group> groups = new ConcurrentHashMap<>();

  private static final class Group {
    final Map<String, Demand> clients = new ConcurrentHashMap<>();
    volatile double[] others = new double[0];
  }

  /** Records one report of {@code client} for {@code group}; the first one subscribes it. */
  void report(String group, String client, long requests, long elapsedMillis, long nowMillis) {
    groups
        .computeIfAbsent(group, g -> new Group())
        .clients
        .compute(
            client,
            (c, demand) ->
                (demand == null ? Demand.NONE : demand).report(requests, elapsedMillis, nowMillis));
  }

  /** Forgets {@code client} in {@code group} (its stream ended or the bucket was abandoned). */
  void leave(String group, String client) {
    groups.computeIfPresent(
        group,
        (g, state) -> {
          state.clients.remove(client);
          return state.clients.isEmpty() ? null : state;
        });
  }

  /**
   * The share of {@code client} in {@code plan}'s group, per second: {@link FairShare} over this
   * instance's clients and the other instances' ones, each demand floored at 1 % of an equal split.
   *
   * @param limit the rate to divide, per second
   * @return 0 when the client has not reported for this group
   */
  double share(BucketPlan.Divided plan, String client, double limit) {
    Group group = groups.get(plan.group());
    if (group == null || !group.clients.containsKey(client)) {
      return 0;
    }
    List<Map.Entry<String, Demand>> own = List.copyOf(group.clients.entrySet());
    double[] others = group.others;
    int n = own.size() + others.length;
    double floor = DEMAND_FLOOR * limit / n;
    double[] demands = new double[n];
    int mine = -1;
    for (int i = 0; i < own.size(); i++) {
      demands[i] = Math.max(floor, own.get(i).getValue().forDivision());
      if (own.get(i).getKey().equals(client)) {
        mine = i;
      }
    }
    for (int i = 0; i < others.length; i++) {
      demands[own.size() + i] = Math.max(floor, others[i]);
    }
    return FairShare.divide(limit, demands)[mine];
  }

  /**
   * This instance's demands per group, per client, per second ({@link Double#POSITIVE_INFINITY}
   * while unknown): what the board publishes.
   */
  Map<String, Map<String, Double>> localDemands() {
    Map<String, Map<String, Double>> out = new HashMap<>();
    groups.forEach(
        (name, group) -> {
          Map<String, Double> clients = new HashMap<>();
          group.clients.forEach((client, demand) -> clients.put(client, demand.forDivision()));
          out.put(name, clients);
        });
    return out;
  }

  /** Sets what the other instances' clients demand in {@code group}, per second. */
  void others(String group, double[] demands) {
    Group state = groups.get(group);
    if (state != null) {
      state.others = demands.clone();
    }
  }

  /**
   * Drops every other instance's demand, so each group is divided among this instance's clients.
   */
  void forgetOthers() {
    groups.values().forEach(group -> group.others = new double[0]);
  }
}
