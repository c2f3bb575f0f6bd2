package dev.sluice.replay;

import dev.sluice.metrics.SpaceSaving;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one rule did over a replay: counted descriptors, how they were answered, its busiest second
 * and the keys it refused most. Used by the one replay thread.
 */
final class RuleTally {
  /** Enough to be exact for the keys a capture's top 10 come from, yet bounded. */
  static final int KEY_SKETCH = 4096;

  long requests;
  long allowed;
  long refused;
  long shadowRefused;
  private final Map<Long, Long> perSecond = new HashMap<>();
  private final SpaceSaving<String> limitedKeys = new SpaceSaving<>(KEY_SKETCH);

  void add(long second, boolean refusedNow, boolean shadowOver, String key) {
    requests++;
    perSecond.merge(second, 1L, Long::sum);
    if (refusedNow) {
      refused++;
      limitedKeys.add(key, 1);
    } else {
      allowed++;
      if (shadowOver) {
        shadowRefused++;
        limitedKeys.add(key, 1);
      }
    }
  }

  long peakPerSecond() {
    return perSecond.values().stream().mapToLong(Long::longValue).max().orElse(0);
  }

  /** The keys refused (or shadow-refused) most, ties by key so the output is deterministic. */
  List<SpaceSaving.Counted<String>> topLimited(int n) {
    return limitedKeys.all().stream()
        .sorted(
            (a, b) ->
                a.count() != b.count()
                    ? Long.compare(b.count(), a.count())
                    : a.key().compareTo(b.key()))
        .limit(n)
        .toList();
  }
}
