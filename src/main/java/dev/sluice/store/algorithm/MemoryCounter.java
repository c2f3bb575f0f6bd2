package dev.sluice.store.algorithm;

import dev.sluice.store.Usage;
import java.util.Objects;

/**
 * A counter's value in the memory store: each algorithm has its own immutable record, and each
 * knows the epoch millisecond after which it is worthless (the store then drops it).
 */
public interface MemoryCounter {
  long expiresAtMillis();

  /** What one take leaves: the counter's new value and the usage to report. */
  record Step(MemoryCounter next, Usage usage) {
    public Step {
      Objects.requireNonNull(next, "next");
      Objects.requireNonNull(usage, "usage");
    }
  }
}
