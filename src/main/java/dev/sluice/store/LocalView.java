package dev.sluice.store;

import dev.sluice.rules.Consistency;
import java.util.Objects;

/**
 * How this instance counts a synced or split counter, for operators: a synced counter's {@link
 * CounterState#usage()} is on {@code knownGlobal + unsynced}, a split counter's against {@code
 * limit / splitInstances}.
 *
 * @param knownGlobal synced: the global count the last sync read back (0 for split)
 * @param unsynced synced: hits counted here not yet answered by a sync (0 for split)
 * @param splitInstances split: the instances the limit is divided by (0 for synced)
 */
public record LocalView(
    Consistency consistency, long knownGlobal, long unsynced, int splitInstances) {
  public LocalView {
    Objects.requireNonNull(consistency, "consistency");
  }
}
