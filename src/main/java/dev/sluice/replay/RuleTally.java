package dev.sluice.replay;

import dev.sluice.metrics.SpaceSaving;
import dev.sluice.rules.Limit;
import java.util.List;

/**
 * What one rule did over a replay: counted descriptors, how they were answered, its busiest second
 * and the keys it refused most. Used by the one replay thread.
 */
final class RuleTally {
  /** Enough to be exact for the keys a capture's top 10 come from, yet bounded. */
  static final int KEY_SKETCH = 4096;

  /** The limit last counted under the rule. */
  Limit limit;

  long requests;
  long allowed;
  long refused;
  long shadowRefused;
  private final SecondPeak perSecond = new SecondPeak();
  private final SpaceSaving<String> limitedKeys = new SpaceSaving<>(KEY_SKETCH);

  void add(long second, boolean refusedNow, boolean shadowOver, String key) {
    requests++;
    perSecond.add(second);
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
    return perSecond.peak();
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
