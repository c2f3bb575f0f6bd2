package dev.sluice.limiter;

import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import java.time.Clock;
import java.util.Optional;

/**
 * Counters known to be over their limit, answered in this process without the store until they can
 * allow again: the end of the window (fixed window) or until the bucket holds enough tokens for the
 * refused request (token bucket). Like the reference's local cache, hits answered here are not
 * counted in the store, so the store's count stays lower than the real traffic while a key is
 * cached. Thread-safe. Turned off, it is {@link #disabled()}: an object that knows nothing, not a
 * flag to check.
 */
public interface OverLimitCache {

  /**
   * @param maxEntries entries kept at most; 0 gives {@link #disabled()}
   * @param metrics counts lookups by result (hit or miss)
   */
  static OverLimitCache of(long maxEntries, Clock clock, SluiceMetrics metrics) {
    return maxEntries <= 0 ? disabled() : new LruOverLimitCache(maxEntries, clock, metrics);
  }

  static OverLimitCache disabled() {
    return Disabled.INSTANCE;
  }

  /**
   * The local answer for {@code hit}, when its counter is known to be over its limit. An enabled
   * cache counts each lookup in metrics.
   */
  Optional<Usage> lookup(Hit hit);

  /** Remembers a counter a store just reported over its limit; ignores other usages. */
  void remember(Hit hit, Usage usage);

  /** The cache turned off: knows nothing, remembers nothing. */
  enum Disabled implements OverLimitCache {
    INSTANCE;

    @Override
    public Optional<Usage> lookup(Hit hit) {
      return Optional.empty();
    }

    @Override
    public void remember(Hit hit, Usage usage) {}
  }
}
