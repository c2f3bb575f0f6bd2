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
 * <p>One group is a charge of its own: the usual request, one descriptor, is charged as the {@link
 * Group} its plan already holds, with no list and no charge object around it. Several are {@link
 * Groups}. Read a charge through {@link #size} and {@link #group}; {@link #groups} builds a list
 * for a single group.
 *
 * <p>A plain list of independent hits ({@link #independent}) is the reference's behaviour: each hit
 * is charged by its own algorithm, whatever the others do.
 */
public sealed interface Charge permits Charge.Group, Charge.Groups {

  /** Which hits of a group are charged. */
  enum Policy {
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
  enum Vote {
    /** Never refuses the request: a shadow-mode rule, or any rule under global shadow mode. */
    NONE,
    /** Refuses the request when it refuses. */
    REGULAR,
    /** {@code quota_mode}: refuses the request only when every quota-mode group refuses. */
    QUOTA
  }

  /**
   * One counted descriptor, and a charge of its own: {@link Each} for one limit charged by its
   * algorithm alone (the usual descriptor, its hit with no list around it), {@link Joint} for any
   * other. Read its hits through {@link #hitCount} and {@link #hit}; {@link #hits} builds a list
   * for an {@link Each}.
   */
  sealed interface Group extends Charge permits Each, Joint {

    /**
     * The counter key whose Redis hash tag every key of this group shares: the hit's own key for
     * one limit, {@link CounterKey#group} for several.
     */
    String tag();

    /** How many hits this group has: one per limit, none when {@link #answered}. */
    @Override
    int hitCount();

    /** Hit {@code i} of this group, in list order. */
    Hit hit(int i);

    /** Which of its hits are charged. */
    Policy policy();

    /** How its refusal counts towards refusing the request. */
    Vote vote();

    /**
     * The descriptor was answered refused before the store was asked (the local over-limit cache):
     * it has no hits, charges nothing and refuses by its vote.
     */
    boolean answered();

    /** The descriptor's limits, in order; empty only when {@link #answered}. */
    @Override
    List<Hit> hits();

    /** This group with {@code newHits} in place of its hits (same limits, other counters). */
    Group withHits(List<Hit> newHits);

    @Override
    default int size() {
      return 1;
    }

    @Override
    default Group group(int g) {
      Objects.checkIndex(g, 1);
      return this;
    }

    @Override
    default List<Group> groups() {
      return List.of(this);
    }

    /**
     * The group of a counted descriptor's hits: an {@link Each} for {@link Policy#EACH}, else a
     * {@link Joint}.
     */
    static Group of(String tag, List<Hit> hits, Policy policy, Vote vote) {
      if (policy != Policy.EACH) {
        return new Joint(tag, hits, policy, vote, false);
      }
      if (hits.size() != 1 || !hits.get(0).key().equals(tag)) {
        throw new IllegalArgumentException("a limit charged each is one hit under its own key");
      }
      return new Each(hits.get(0), vote);
    }

    /** One limit charged by its algorithm alone, as the reference does. */
    static Each each(Hit hit) {
      return new Each(hit, Vote.REGULAR);
    }

    /** A descriptor the local cache already refused. */
    static Joint answeredRefused(String tag, Vote vote) {
      return new Joint(tag, List.of(), Policy.WITH_REQUEST, vote, true);
    }
  }

  /**
   * One limit charged by its algorithm alone ({@link Policy#EACH}), under its own key: a fixed
   * window counts refused hits too, a token bucket and a sliding window only allowed ones.
   */
  record Each(Hit hit, Vote vote) implements Group {
    public Each {
      Objects.requireNonNull(hit, "hit");
      Objects.requireNonNull(vote, "vote");
    }

    @Override
    public String tag() {
      return hit.key();
    }

    @Override
    public int hitCount() {
      return 1;
    }

    @Override
    public Hit hit(int i) {
      Objects.checkIndex(i, 1);
      return hit;
    }

    @Override
    public List<Hit> hits() {
      return List.of(hit);
    }

    @Override
    public Policy policy() {
      return Policy.EACH;
    }

    @Override
    public boolean answered() {
      return false;
    }

    @Override
    public Group withHits(List<Hit> newHits) {
      return Group.of(newHits.get(0).key(), newHits, Policy.EACH, vote);
    }
  }

  /**
   * Limits charged jointly: several on one descriptor ({@link Policy#TOGETHER}), or with the whole
   * request ({@link Policy#WITH_REQUEST}), or a descriptor already {@code answered}.
   *
   * @param hits the descriptor's limits; empty only when {@code answered}
   */
  record Joint(String tag, List<Hit> hits, Policy policy, Vote vote, boolean answered)
      implements Group {
    public Joint {
      Objects.requireNonNull(tag, "tag");
      hits = List.copyOf(hits);
      Objects.requireNonNull(policy, "policy");
      Objects.requireNonNull(vote, "vote");
      if (policy == Policy.EACH) {
        throw new IllegalArgumentException("a limit charged each is an Each");
      }
      if (hits.isEmpty() != answered) {
        throw new IllegalArgumentException("only an answered group has no hits, and it has none");
      }
    }

    @Override
    public int hitCount() {
      return hits.size();
    }

    @Override
    public Hit hit(int i) {
      return hits.get(i);
    }

    @Override
    public Group withHits(List<Hit> newHits) {
      return new Joint(tag, newHits, policy, vote, answered);
    }
  }

  /**
   * A charge of any number of groups (also one or none).
   *
   * @param groups in request order; the usages a store answers follow {@link #hits()}
   */
  record Groups(List<Group> groups) implements Charge {
    public Groups {
      groups = List.copyOf(groups);
    }

    @Override
    public int size() {
      return groups.size();
    }

    @Override
    public Group group(int g) {
      return groups.get(g);
    }
  }

  /** How many groups this charge has. */
  int size();

  /** Group {@code g}, in request order. */
  Group group(int g);

  /** Every group, in request order: a list built on each call for a single {@link Group}. */
  List<Group> groups();

  /** {@code groups} as one charge: the group itself when there is one. */
  static Charge of(List<Group> groups) {
    return groups.size() == 1 ? groups.get(0) : new Groups(groups);
  }

  /** Every hit charged by its own algorithm alone. */
  static Charge independent(List<Hit> hits) {
    List<Group> groups = new ArrayList<>(hits.size());
    for (Hit hit : hits) {
      groups.add(Group.each(hit));
    }
    return of(groups);
  }

  /** How many hits, over every group: the usages a store answers. */
  default int hitCount() {
    int count = 0;
    for (int g = 0; g < size(); g++) {
      count += group(g).hitCount();
    }
    return count;
  }

  /** Every hit of every group, in order: what a store answers one usage each for. */
  default List<Hit> hits() {
    List<Hit> hits = new ArrayList<>(hitCount());
    for (int g = 0; g < size(); g++) {
      Group group = group(g);
      for (int i = 0; i < group.hitCount(); i++) {
        hits.add(group.hit(i));
      }
    }
    return hits;
  }

  /**
   * True when no group's charging depends on another's answer (no {@link Policy#WITH_REQUEST}), so
   * each group may be decided on its own, in any order, on any node.
   */
  default boolean groupsIndependent() {
    for (int g = 0; g < size(); g++) {
      if (group(g).policy() == Policy.WITH_REQUEST) {
        return false;
      }
    }
    return true;
  }

  /** True when every group is an {@link Each}: today's per-hit commands do. */
  default boolean perHit() {
    for (int g = 0; g < size(); g++) {
      if (group(g).policy() != Policy.EACH) {
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
  static boolean[][] decide(Charge charge, boolean[][] fits, boolean[][] chargesRefused) {
    boolean[] groupFits = new boolean[charge.size()];
    boolean regularRefused = false;
    int quota = 0;
    int quotaRefused = 0;
    for (int g = 0; g < charge.size(); g++) {
      boolean all = !charge.group(g).answered();
      for (boolean fit : fits[g]) {
        all &= fit;
      }
      groupFits[g] = all;
      switch (charge.group(g).vote()) {
        case REGULAR -> regularRefused |= !all;
        case QUOTA -> {
          quota++;
          quotaRefused += all ? 0 : 1;
        }
        case NONE -> {}
      }
    }
    boolean requestRefused = regularRefused || (quota > 0 && quotaRefused == quota);
    boolean[][] charged = new boolean[charge.size()][];
    for (int g = 0; g < charge.size(); g++) {
      charged[g] = new boolean[fits[g].length];
      for (int i = 0; i < fits[g].length; i++) {
        charged[g][i] =
            switch (charge.group(g).policy()) {
              case EACH -> fits[g][i] || chargesRefused[g][i];
              case TOGETHER -> groupFits[g];
              case WITH_REQUEST -> groupFits[g] && !requestRefused;
            };
      }
    }
    return charged;
  }
}
