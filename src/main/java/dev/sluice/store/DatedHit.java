package dev.sluice.store;

import java.util.Objects;

/**
 * A hit counted as of {@code atMillis} rather than now: a synced delta that belongs to the window
 * holding that instant, even when it is pushed after the window ended.
 *
 * @param atMillis epoch milliseconds on the service clock
 */
public record DatedHit(Hit hit, long atMillis) {
  public DatedHit {
    Objects.requireNonNull(hit, "hit");
  }
}
