package dev.sluice.store;

import dev.sluice.rules.Limit;
import java.util.Objects;

/**
 * One counter to charge within a request.
 *
 * @param key the counter's identity from {@link CounterKey}; a fixed-window store appends the
 *     window index itself
 * @param hits how many hits to add; 0 only checks the counter without consuming
 */
public record Hit(String key, Limit limit, long hits) {
  public Hit {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(limit, "limit");
    if (hits < 0) {
      throw new IllegalArgumentException("hits must be >= 0: " + hits);
    }
  }
}
