package dev.sluice.replay;

import dev.sluice.config.LimiterConfig;
import dev.sluice.config.LimiterSettings;
import dev.sluice.config.RulesSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.limiter.CountedOutcome;
import dev.sluice.limiter.DecisionListener;
import dev.sluice.limiter.DescriptorRequest;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.memory.InMemoryCounterStore;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Runs a captured stream through the real {@link RateLimiter} on the memory store, on a simulated
 * clock set to each request's timestamp, and tallies what every rule did. One instance replays one
 * stream on the calling thread; the memory store answers synchronously, so the order of decisions
 * is the order of the input and the report is deterministic.
 */
public final class Replayer implements DecisionListener {
  /**
   * How to replay.
   *
   * @param instances Sluice instances sharing the one store; requests go to them round-robin, which
   *     with a shared store decides exactly as one instance does
   * @param realTime wait between requests as the capture did ({@code --speed 1x}); else as fast as
   *     possible
   */
  public record Settings(Algorithm overrideAlgorithm, int instances, boolean realTime) {
    public Settings {
      if (instances < 1) {
        throw new IllegalArgumentException("instances must be >= 1: " + instances);
      }
    }
  }

  private final RuleSet rules;
  private final Settings settings;
  private final Map<String, RuleTally> tallies = new TreeMap<>();
  private final SecondPeak decisionsPerSecond = new SecondPeak();
  private final SecondPeak commandsPerSecond = new SecondPeak();
  private long commands;
  private SimulatedClock clock;
  private long second;

  private Replayer(RuleSet rules, Settings settings) {
    this.rules = rules;
    this.settings = settings;
  }

  /** Replays {@code input} against {@code rules}; reads it once, in order. */
  public static ReplayReport replay(
      RuleSet rules, Iterator<CapturedRequest> input, Settings settings)
      throws InterruptedException {
    return new Replayer(rules, settings).run(input);
  }

  private ReplayReport run(Iterator<CapturedRequest> input) throws InterruptedException {
    if (!input.hasNext()) {
      return new ReplayReport(0, 0, 0, 0, 0, List.of());
    }
    CapturedRequest first = input.next();
    clock = new SimulatedClock(first.timestampMillis());
    // Swept on the simulated clock: ended windows are dropped as the capture's time passes, so
    // memory follows the keys active at once, not every key the capture ever held.
    try (InMemoryCounterStore store = new InMemoryCounterStore(clock, clock).start()) {
      return run(first, input, limiters(store));
    }
  }

  private List<RateLimiter> limiters(InMemoryCounterStore store) {
    List<RateLimiter> instances = new ArrayList<>();
    for (int i = 0; i < settings.instances(); i++) {
      instances.add(
          new RateLimiter(
              () -> rules,
              RateLimiter.StoreChoice.of(store),
              limiterConfig(),
              new SluiceMetrics(new PrometheusRegistry()),
              this));
    }
    return instances;
  }

  private ReplayReport run(
      CapturedRequest first, Iterator<CapturedRequest> input, List<RateLimiter> instances)
      throws InterruptedException {
    long requests = 0;
    long last = first.timestampMillis();
    for (CapturedRequest request = first; request != null; request = next(input)) {
      if (settings.realTime() && request.timestampMillis() > last) {
        Thread.sleep(request.timestampMillis() - last);
      }
      last = Math.max(last, request.timestampMillis());
      clock.moveTo(request.timestampMillis());
      second = Math.floorDiv(clock.millis(), 1000);
      decisionsPerSecond.add(second);
      instances.get((int) (requests++ % instances.size())).decide(toCall(request)).join();
    }
    return report(requests, last - first.timestampMillis());
  }

  private LimiterConfig limiterConfig() {
    return LimiterConfig.from(
        SettingValues.builder()
            .set(RulesSettings.DEFAULT_ALGORITHM, settings.overrideAlgorithm())
            .set(LimiterSettings.INSTANCES, settings.instances())
            .build());
  }

  private static CapturedRequest next(Iterator<CapturedRequest> input) {
    return input.hasNext() ? input.next() : null;
  }

  private static RateLimitCall toCall(CapturedRequest request) {
    List<DescriptorRequest> descriptors = new ArrayList<>(request.descriptors().size());
    for (List<Entry> entries : request.descriptors()) {
      descriptors.add(new DescriptorRequest(entries, Optional.empty(), OptionalLong.empty()));
    }
    return new RateLimitCall(request.domain(), descriptors, request.hits());
  }

  @Override
  public void counted(CountedOutcome outcome) {
    String id = outcome.domain() + "." + outcome.rule();
    String key = outcome.entries().stream().map(Entry::toString).collect(Collectors.joining(","));
    RuleTally tally = tallies.computeIfAbsent(id, k -> new RuleTally());
    tally.limit = outcome.limit();
    tally.add(second, outcome.refused(), outcome.counts().shadow() > 0, key);
    // One Redis operation per counted descriptor, whatever the algorithm: a script call, or for
    // a fixed window one MULTI/EXEC of INCRBY and PEXPIRE NX.
    commandsPerSecond.add(second);
    commands++;
  }

  private ReplayReport report(long requests, long simulatedMillis) {
    List<ReplayReport.RuleReport> rulesReport = new ArrayList<>();
    tallies.forEach(
        (id, t) ->
            rulesReport.add(
                new ReplayReport.RuleReport(
                    id,
                    t.limit.describe(),
                    t.requests,
                    t.allowed,
                    t.refused,
                    t.shadowRefused,
                    t.peakPerSecond(),
                    t.topLimited(10))));
    double seconds = Math.max(1.0, Math.ceil(simulatedMillis / 1000.0));
    return new ReplayReport(
        requests,
        simulatedMillis,
        decisionsPerSecond.peak(),
        commandsPerSecond.peak(),
        commands / seconds,
        rulesReport);
  }
}
