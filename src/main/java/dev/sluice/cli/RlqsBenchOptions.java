package dev.sluice.cli;

import dev.sluice.config.SettingValues;
import dev.sluice.rlqs.RlqsBench;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code sluice bench --rlqs}: simulated Envoys on RLQS streams instead of RLS calls. */
final class RlqsBenchOptions {
  private final SettingValues values;

  RlqsBenchOptions(SettingValues values) {
    this.values = values;
  }

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  RlqsBench.Settings toSettings(String defaultTarget, String domain, Duration duration) {
    int envoys = values.get(BenchSettings.ENVOYS);
    List<Double> demand = values.get(BenchSettings.DEMAND);
    Duration reportInterval = values.get(BenchSettings.REPORT_INTERVAL);
    List<String> targets = values.get(BenchSettings.RLQS_TARGETS);
    if (envoys < 1 || demand.isEmpty()) {
      throw new IllegalArgumentException("--envoys and --demand need at least one: " + envoys);
    }
    if (reportInterval.toMillis() < 100) {
      throw new IllegalArgumentException("--report-interval must be >= 100ms: " + reportInterval);
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (String pair : values.get(BenchSettings.BUCKET)) {
      int eq = pair.indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("--bucket wants k=v[,k=v...]: " + pair);
      }
      map.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
    List<Double> demands =
        java.util.stream.IntStream.range(0, envoys)
            .mapToObj(i -> demand.get(i % demand.size()))
            .toList();
    return new RlqsBench.Settings(
        targets.isEmpty() ? List.of(defaultTarget) : targets,
        domain,
        map,
        demands,
        reportInterval,
        duration,
        values.get(BenchSettings.LIMIT),
        Optional.ofNullable(values.get(BenchSettings.LEAVE_AT)),
        Optional.ofNullable(values.get(BenchSettings.ARRIVE_AT)));
  }
}
