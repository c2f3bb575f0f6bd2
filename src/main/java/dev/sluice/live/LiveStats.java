package dev.sluice.live;

import dev.sluice.limiter.CountedOutcome;
import dev.sluice.limiter.DecisionListener;
import dev.sluice.metrics.SpaceSaving;
import dev.sluice.rules.Entry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Collects what the live page shows from every counted decision: a per-rule series of the last
 * {@link #WINDOW_SECONDS} seconds and a sketch of the keys refused most. Memory is fixed: at most
 * {@link #MAX_RULES} series (rules are bounded by the configuration; beyond the cap they share
 * {@code _other}) and {@link #SKETCH_CAPACITY} keys per sketch.
 *
 * <p>Thread-safe; {@link #counted} runs on the answering thread and takes one short lock per
 * counted descriptor (two when it was refused).
 */
public final class LiveStats implements DecisionListener {
  public static final int WINDOW_SECONDS = 900;
  static final int MAX_RULES = 500;
  static final int SKETCH_CAPACITY = 64;
  static final int TOP_KEYS = 10;
  static final String OTHER_RULE = "_other";

  /** A series' identity: the configured rule, never a request value. */
  record RuleId(String domain, String rule) {}

  /** A refused counter as the sketch holds it; rendered (hashed or not) only when shown. */
  record KeyId(String domain, String rule, List<Entry> entries, boolean detailed) {}

  private final Clock clock;
  private final ValueHasher hasher;
  private final Map<RuleId, RateSeries> series = new ConcurrentHashMap<>();
  private final RecentTopKeys<KeyId> refused = new RecentTopKeys<>(SKETCH_CAPACITY);

  /**
   * @param salt mixed into the hashes of request values shown on the page; random per process
   */
  public LiveStats(Clock clock, byte[] salt) {
    this.clock = clock;
    this.hasher = new ValueHasher(salt);
  }

  @Override
  public void counted(CountedOutcome outcome) {
    long second = Math.floorDiv(clock.millis(), 1000);
    RateSeries rule = seriesOf(outcome);
    rule.counted(outcome.limit());
    rule.add(second, outcome.refused(), outcome.counts().total(), outcome.counts().over());
    if (outcome.refused()) {
      refused.add(
          second,
          new KeyId(outcome.domain(), outcome.rule(), outcome.entries(), outcome.detailedMetric()),
          1);
    }
  }

  private RateSeries seriesOf(CountedOutcome outcome) {
    String domain = outcome.domain();
    RuleId id = new RuleId(domain, outcome.rule());
    RateSeries known = series.get(id);
    if (known != null) {
      return known;
    }
    RuleId admitted = series.size() < MAX_RULES ? id : new RuleId(domain, OTHER_RULE);
    return series.computeIfAbsent(admitted, k -> new RateSeries(WINDOW_SECONDS, outcome.limit()));
  }

  /** What the page shows now: every rule seen so far, sorted, and the top refused keys. */
  public LiveSnapshot snapshot() {
    long now = Math.floorDiv(clock.millis(), 1000);
    List<LiveSnapshot.RuleView> rules = new ArrayList<>(series.size());
    series.forEach(
        (id, s) -> {
          long[][] window = s.window(now);
          rules.add(
              new LiveSnapshot.RuleView(
                  id.domain(), id.rule(), s.limit().describe(), s.totals(), window[0], window[1]));
        });
    rules.sort(
        Comparator.comparing(LiveSnapshot.RuleView::domain)
            .thenComparing(LiveSnapshot.RuleView::rule));
    List<LiveSnapshot.KeyView> keys = new ArrayList<>(TOP_KEYS);
    for (SpaceSaving.Counted<KeyId> counted : refused.top(now, TOP_KEYS)) {
      KeyId key = counted.key();
      keys.add(
          new LiveSnapshot.KeyView(
              key.domain(),
              key.rule(),
              hasher.render(key.entries(), key.detailed()),
              counted.count(),
              counted.error()));
    }
    return new LiveSnapshot(now, rules, keys);
  }
}
