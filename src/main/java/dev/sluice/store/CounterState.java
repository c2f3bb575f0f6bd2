package dev.sluice.store;

import java.util.Objects;

/**
 * A counter as an operator sees it.
 *
 * @param storeKey the key in the store (for Redis, the full key with prefix and window index)
 * @param exists whether the store held the counter; a missing one reads as a fresh window or a full
 *     bucket
 * @param usage the counter's state as if a request of zero hits had just checked it
 */
public record CounterState(String storeKey, boolean exists, Usage usage) {
  public CounterState {
    Objects.requireNonNull(storeKey, "storeKey");
    Objects.requireNonNull(usage, "usage");
  }
}
