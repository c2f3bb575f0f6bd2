package dev.sluice.metrics;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lets at most {@code limit} distinct values through as a label; the rest become {@code _other}, so
 * a client sending random values cannot grow the metric series without bound.
 */
final class LabelCap {
  static final String OTHER = "_other";

  private final int limit;
  private final Set<String> admitted = ConcurrentHashMap.newKeySet();

  LabelCap(int limit) {
    this.limit = limit;
  }

  String admit(String value) {
    if (admitted.contains(value)) {
      return value;
    }
    // Racing threads may admit a few more than the limit; the bound only needs to be rough.
    if (admitted.size() < limit) {
      admitted.add(value);
      return value;
    }
    return OTHER;
  }
}
