package dev.sluice.store;

import java.util.Objects;
import java.util.Optional;

/**
 * A counter as an operator sees it.
 *
 * @param storeKey the key in the store (for Redis, the full key with prefix and window index)
 * @param exists whether the store held the counter; a missing one reads as a fresh window or a full
 *     bucket
 * @param usage the counter's state as if a request of zero hits had just checked it
 * @param local for a synced or split limit, how this instance counts it; empty for exact ones
 */
public record CounterState(
    String storeKey, boolean exists, Usage usage, Optional<LocalView> local) {
  public CounterState {
    Objects.requireNonNull(storeKey, "storeKey");
    Objects.requireNonNull(usage, "usage");
    Objects.requireNonNull(local, "local");
  }

  /** The state of an exact counter, as the store holds it. */
  public CounterState(String storeKey, boolean exists, Usage usage) {
    this(storeKey, exists, usage, Optional.empty());
  }

  /** This state, as this instance's view {@code view}. */
  public CounterState withLocal(LocalView view) {
    return new CounterState(storeKey, exists, usage, Optional.of(view));
  }
}
