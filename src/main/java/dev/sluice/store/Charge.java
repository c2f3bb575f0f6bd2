package dev.sluice.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything one request charges, for one atomic step of a store: its counted descriptors as {@link
 * Group}s, each with the rule that says which of its hits are charged. {@link #decide} is that rule
 * as a pure function; the memory store runs it inside one critical section and {@code
 * lua/charge.lua} runs the same rule inside one script, so both stores charge alike.
 *
 * <p>A plain list of independent hits ({@link #independent}) is the reference's behaviour: each hit
 * is charged by its own algorithm, whatever the others do.
 *
 * @param groups in request order; the usages a store answers follow {@link #hits()}
 */
public record Charge(List<Group> groups) {

  public Charge {
    groups = List.copyOf(groups);
  }

  /** Which hits of a group are charged. */
  public enum Policy {
    /**
     * One limit, charged by its algorithm alone: a fixed window counts refused hits too, a token
     * bucket and a sliding window only allowed ones. The reference's behaviour.
     */
    EACH,
    /** Several limits on one descriptor: all charged when every one fits, none when one refuses. */
    TOGETHER,
    /**
     * {@code charge_denied: false}: all charged when every limit fits and the request is not
     * refused by any descriptor, else none.
     */
    WITH_REQUEST
  }

  /**
   * How a group's refusal counts towards refusing the whole request, as {@code Verdict} decides.
   */
  public enum Vote {
    /** Never refuses the request: a shadow-mode rule, or any rule under global shadow mode. */
    NONE,
    /** Refuses the request when it refuses. */
    REGULAR,
    /** {@code quota_mode}: refuses the request only when every quota-mode group refuses. */
    QUOTA
  }

  /**
   * One counted descriptor.
   *
   * @param tag the counter key whose Redis hash tag every key of this group shares: the hit's own
   *     key for one limit, {@link CounterKey#group} for several
   * @param hits the descriptor's limits; empty only when {@code answered}
   * @param answered the descriptor was answered refused before the store was asked (the local
   *     over-limit cache): it charges nothing and refuses by its vote
   */
  public record Group(String tag, List<Hit> hits, Policy policy, Vote vote, boolean answered) {
    public Group {
      Objects.requireNonNull(tag, "tag");
      hits = List.copyOf(hits);
      Objects.requireNonNull(policy, "policy");
      Objects.requireNonNull(vote, "vote");
      if (hits.isEmpty() != answered) {
        throw new IllegalArgumentException("only an answered group has no hits, and it has none");
      }
      if (policy == Policy.EACH && hits.size() > 1) {
        throw new IllegalArgumentException("several limits are charged together, not each");
      }
    }

    /** One limit charged by its algorithm alone, as the reference does. */
    public static Group each(Hit hit) {
      return new Group(hit.key(), List.of(hit), Policy.EACH, Vote.REGULAR, false);
    }

    /** A descriptor the local cache already refused. */
    public static Group answeredRefused(String tag, Vote vote) {
      return new Group(tag, List.of(), Policy.WITH_REQUEST, vote, true);
    }

    /** This group with {@code newHits} in place of its hits (same limits, other counters). */
    public Group withHits(List<Hit> newHits) {
      return new Group(tag, newHits, policy, vote, answered);
    }
  }

  /** Every hit charged by its own algorithm alone. */
  public static Charge independent(List<Hit> hits) {
    List<Group> groups = new ArrayList<>(hits.size());
    for (Hit hit : hits) {
      groups.add(Group.each(hit));
    }
    return new Charge(groups);
  }

  /** Every hit of every group, in order: what a store answers one usage each for. */
  public List<Hit> hits() {
    if (groups.size() == 1) {
      return groups.get(0).hits(); // already immutable: no copy for the common one-descriptor case
    }
    int size = 0;
    for (int g = 0; g < groups.size(); g++) {
      size += groups.get(g).hits().size();
    }
    List<Hit> hits = new ArrayList<>(size);
    for (int g = 0; g < groups.size(); g++) {
      hits.addAll(groups.get(g).hits());
    }
    return hits;
  }

  /**
   * True when no group's charging depends on another's answer (no {@link Policy#WITH_REQUEST}), so
   * each group may be decided on its own, in any order, on any node.
   */
  public boolean groupsIndependent() {
    for (int g = 0; g < groups.size(); g++) {
      if (groups.get(g).policy() == Policy.WITH_REQUEST) {
        return false;
      }
    }
    return true;
  }

  /** True when every group is one hit charged {@link Policy#EACH}: today's per-hit commands do. */
  public boolean perHit() {
    for (int g = 0; g < groups.size(); g++) {
      if (groups.get(g).policy() != Policy.EACH) {
        return false;
      }
    }
    return true; // loops, not streams: both are asked on every Redis request
  }

  /**
   * The charging rule. {@code fits.get(g)[i]}: hit {@code i} of group {@code g} fits its limit (an
   * answered group has none, and refused). A group refuses when one of its hits does not fit. The
   * request is refused when a {@link Vote#REGULAR} group refuses, or when there are {@link
   * Vote#QUOTA} groups and all of them refuse.
   *
   * @param chargesRefused per hit: its algorithm charges refused hits (a fixed window), which
   *     matters only for {@link Policy#EACH}
   * @return per group and hit: whether it is charged
   */
  public static boolean[][] decide(
      List<Group> groups, boolean[][] fits, boolean[][] chargesRefused) {
    boolean[] groupFits = new boolean[groups.size()];
    boolean regularRefused = false;
    int quota = 0;
    int quotaRefused = 0;
    for (int g = 0; g < groups.size(); g++) {
      boolean all = !groups.get(g).answered();
      for (boolean fit : fits[g]) {
        all &= fit;
      }
      groupFits[g] = all;
      switch (groups.get(g).vote()) {
        case REGULAR -> regularRefused |= !all;
        case QUOTA -> {
          quota++;
          quotaRefused += all ? 0 : 1;
        }
        case NONE -> {}
      }
    }
    boolean requestRefused = regularRefused || (quota > 0 && quotaRefused == quota);
    boolean[][] charged = new boolean[groups.size()][];
    for (int g = 0; g < groups.size(); g++) {
      charged[g] = new boolean[fits[g].length];
      for (int i = 0; i < fits[g].length; i++) {
        charged[g][i] =
            switch (groups.get(g).policy()) {
              case EACH -> fits[g][i] || chargesRefused[g][i];
              case TOGETHER -> groupFits[g];
              case WITH_REQUEST -> groupFits[g] && !requestRefused;
            };
      }
    }
    return charged;
  }
}
