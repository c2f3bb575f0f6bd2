package dev.sluice.rlqs;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the Envoys reported allowed and denied, per domain and rule, since start: the live page's
 * totals, kept here rather than read back from the metrics registry. Memory is fixed: at most
 * {@link #MAX_RULES} rows (rules are bounded by the configuration; reloads may add names, beyond
 * the cap they share {@code _other}). Thread-safe; a report adds to two {@link LongAdder}s.
 */
final class ReportTally {
  static final int MAX_RULES = 500;
  static final String OTHER_RULE = "_other";

  /** A row's identity: the configured rule, never a bucket's values. */
  record RuleKey(String domain, String rule) {}

  private final Map<RuleKey, LongAdder[]> rows = new ConcurrentHashMap<>();

  void add(String domain, String rule, long allowed, long denied) {
    RuleKey key = new RuleKey(domain, rule);
    LongAdder[] row = rows.get(key);
    if (row == null) {
      RuleKey admitted = rows.size() < MAX_RULES ? key : new RuleKey(domain, OTHER_RULE);
      row = rows.computeIfAbsent(admitted, k -> new LongAdder[] {new LongAdder(), new LongAdder()});
    }
    row[0].add(allowed);
    row[1].add(denied);
  }

  /** Allowed and denied per rule, as they are now. */
  Map<RuleKey, long[]> totals() {
    Map<RuleKey, long[]> out = new java.util.HashMap<>();
    rows.forEach((key, row) -> out.put(key, new long[] {row[0].sum(), row[1].sum()}));
    return out;
  }
}
