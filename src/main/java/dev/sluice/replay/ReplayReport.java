package dev.sluice.replay;

import dev.sluice.metrics.SpaceSaving;
import java.util.List;

/**
 * A replay's outcome, rules sorted by id.
 *
 * @param requests captured requests replayed
 * @param simulatedMillis from the first to the last timestamp
 * @param peakDecisionsPerSecond requests in the busiest captured second
 * @param peakRedisCommandsPerSecond Redis commands a deployment would send in its busiest second
 *     (fixed window: INCRBY and EXPIRE per counted descriptor; token bucket: one EVALSHA)
 * @param meanRedisCommandsPerSecond over the whole simulated time
 */
public record ReplayReport(
    long requests,
    long simulatedMillis,
    long peakDecisionsPerSecond,
    long peakRedisCommandsPerSecond,
    double meanRedisCommandsPerSecond,
    List<RuleReport> rules) {
  public ReplayReport {
    rules = List.copyOf(rules);
  }

  /**
   * One rule.
   *
   * @param limit the limit counted under the rule, in words ({@code 100 per 15 minutes,
   *     fixed_window}); for {@code _override}, the last client limit seen
   * @param requests descriptors counted against it
   * @param shadowRefused over the limit but answered OK because of shadow mode
   * @param topLimited up to 10 keys refused (or shadow-refused) most, with their counts
   */
  public record RuleReport(
      String rule,
      String limit,
      long requests,
      long allowed,
      long refused,
      long shadowRefused,
      long peakPerSecond,
      List<SpaceSaving.Counted<String>> topLimited) {
    public RuleReport {
      topLimited = List.copyOf(topLimited);
    }
  }
}
