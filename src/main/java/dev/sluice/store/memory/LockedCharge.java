package dev.sluice.store.memory;

import dev.sluice.store.Charge;
import dev.sluice.store.Charged;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.CountingAlgorithm;
import dev.sluice.store.algorithm.MemoryCounter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@link Charge} on the memory store's values, the twin of {@code lua/charge.lua}: pass one
 * evaluates each hit on what the earlier hits of the request would leave if charged (so a counter
 * named twice in one request is never over-admitted), {@link Charge#decide} says which hits are
 * charged, pass two charges those in order and reads the others. The caller holds the locks of
 * every key the charge touches; this class only computes and writes through {@code store}.
 */
final class LockedCharge {
  private LockedCharge() {}

  /** Reads and writes the live counters under the caller's locks. */
  interface Counters {
    /** The live counter at {@code nowMicros}, or null when absent or expired. */
    MemoryCounter get(String key, long nowMicros);

    void put(String key, MemoryCounter value);
  }

  static Charged.Now apply(Charge charge, Counters counters, long nowMicros) {
    if (independentHits(charge)) {
      return applyEach(charge, counters, nowMicros);
    }
    boolean[][] fits = new boolean[charge.size()][];
    boolean[][] chargesRefused = new boolean[charge.size()][];
    Usage[][] first = new Usage[charge.size()][];
    Map<String, MemoryCounter> tentative = new HashMap<>();
    for (int g = 0; g < charge.size(); g++) {
      Charge.Group group = charge.group(g);
      int size = group.hitCount();
      fits[g] = new boolean[size];
      chargesRefused[g] = new boolean[size];
      first[g] = new Usage[size];
      MemoryCounter.Step[] steps = new MemoryCounter.Step[size];
      boolean groupFits = !group.answered();
      for (int i = 0; i < size; i++) {
        Hit hit = group.hit(i);
        CountingAlgorithm algorithm = CountingAlgorithm.of(hit.limit().algorithm());
        steps[i] =
            algorithm.takeInMemory(read(tentative, counters, hit, nowMicros), hit, nowMicros);
        first[g][i] = steps[i].usage();
        fits[g][i] = !steps[i].usage().overLimit();
        chargesRefused[g][i] = algorithm.chargesRefusedHits();
        groupFits &= fits[g][i];
      }
      for (int i = 0; i < size; i++) {
        boolean each = group.policy() == Charge.Policy.EACH;
        if (groupFits || (each && chargesRefused[g][i])) {
          tentative.put(group.hit(i).key(), steps[i].next());
        }
      }
    }
    boolean[][] charged = Charge.decide(charge, fits, chargesRefused);
    // In request order, as the script does: a hit that is not charged reports what the hits
    // before it left, not what the whole request leaves (a counter named twice in one request).
    List<Usage> answers = new ArrayList<>();
    for (int g = 0; g < charge.size(); g++) {
      Charge.Group group = charge.group(g);
      for (int i = 0; i < group.hitCount(); i++) {
        Hit hit = group.hit(i);
        if (charged[g][i]) {
          answers.add(
              charge(CountingAlgorithm.of(hit.limit().algorithm()), hit, counters, nowMicros));
        } else {
          answers.add(uncharged(hit, first[g][i], counters, nowMicros));
        }
      }
    }
    return new Charged.Now(answers);
  }

  /**
   * Every group one {@link Charge.Each} hit on its own counter, the reference's request: no hit's
   * charge depends on another's, so the two passes give what one does.
   */
  private static boolean independentHits(Charge charge) {
    for (int g = 0; g < charge.size(); g++) {
      Charge.Group group = charge.group(g);
      if (group.policy() != Charge.Policy.EACH) {
        return false;
      }
      String key = group.hit(0).key();
      for (int other = 0; other < g; other++) {
        if (charge.group(other).hit(0).key().equals(key)) {
          return false;
        }
      }
    }
    return true;
  }

  /** {@link #apply} for {@link #independentHits}: each hit charged by its algorithm alone. */
  private static Charged.Now applyEach(Charge charge, Counters counters, long nowMicros) {
    if (charge.size() == 1) {
      return new Charged.Now(applyOne(charge.group(0).hit(0), counters, nowMicros)); // no array
    }
    Usage[] answers = new Usage[charge.size()];
    for (int g = 0; g < answers.length; g++) {
      answers[g] = applyOne(charge.group(g).hit(0), counters, nowMicros);
    }
    return new Charged.Now(List.of(answers));
  }

  /** One hit charged by its algorithm alone: in place when it can, else a new value stored. */
  private static Usage applyOne(Hit hit, Counters counters, long nowMicros) {
    CountingAlgorithm algorithm = CountingAlgorithm.of(hit.limit().algorithm());
    MemoryCounter current = counters.get(hit.key(), nowMicros);
    Usage inPlace = current == null ? null : algorithm.chargeInPlace(current, hit, nowMicros);
    if (inPlace != null) {
      return inPlace;
    }
    MemoryCounter.Step step = algorithm.takeInMemory(current, hit, nowMicros);
    if (!step.usage().overLimit() || algorithm.chargesRefusedHits()) {
      counters.put(hit.key(), step.next());
      return step.usage();
    }
    return uncharged(hit, step.usage(), counters, nowMicros);
  }

  /**
   * Charges {@code hit} whether or not it fits: in place when its algorithm can, as pass two does.
   */
  private static Usage charge(
      CountingAlgorithm algorithm, Hit hit, Counters counters, long nowMicros) {
    MemoryCounter current = counters.get(hit.key(), nowMicros);
    Usage inPlace = current == null ? null : algorithm.chargeInPlace(current, hit, nowMicros);
    if (inPlace != null) {
      return inPlace;
    }
    MemoryCounter.Step step = algorithm.takeInMemory(current, hit, nowMicros);
    counters.put(hit.key(), step.next());
    return step.usage();
  }

  /**
   * A hit that was not charged: what is left without it, whether it would have fit, and its count
   * as if charged (for near/over accounting), as the script answers.
   */
  private static Usage uncharged(Hit hit, Usage first, Counters counters, long nowMicros) {
    Hit look = new Hit(hit.key(), hit.limit(), 0);
    Usage left =
        CountingAlgorithm.of(hit.limit().algorithm())
            .takeInMemory(counters.get(hit.key(), nowMicros), look, nowMicros)
            .usage();
    boolean fits = !first.overLimit();
    return new Usage(
        !fits,
        left.remaining(),
        fits ? left.untilResetMicros() : first.untilResetMicros(),
        first.countAfter());
  }

  private static MemoryCounter read(
      Map<String, MemoryCounter> tentative, Counters stored, Hit hit, long nowMicros) {
    MemoryCounter kept = tentative.get(hit.key());
    return kept != null ? kept : stored.get(hit.key(), nowMicros);
  }
}
