package dev.sluice.cli;

import dev.sluice.rlqs.RlqsBench;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code sluice bench --rlqs}: simulated Envoys on RLQS streams instead of RLS calls. */
final class RlqsBenchOptions {
  @Option(
      names = "--rlqs",
      defaultValue = "${env:SLUICE_BENCH_RLQS:-false}",
      description =
          "Simulate Envoys with the rate_limit_quota filter on one bucket (env SLUICE_BENCH_RLQS,"
              + " default ${DEFAULT-VALUE}).")
  boolean enabled;

  @Option(
      names = "--rlqs-targets",
      split = ",",
      defaultValue = "${env:SLUICE_BENCH_RLQS_TARGETS}",
      description =
          "HOST:PORT of each instance; Envoys are spread round-robin (env"
              + " SLUICE_BENCH_RLQS_TARGETS, default: --target).")
  List<String> targets;

  @Option(
      names = "--envoys",
      defaultValue = "${env:SLUICE_BENCH_ENVOYS:-4}",
      description = "Simulated Envoys (env SLUICE_BENCH_ENVOYS, default ${DEFAULT-VALUE}).")
  int envoys;

  @Option(
      names = "--demand",
      split = ",",
      defaultValue = "${env:SLUICE_BENCH_DEMAND:-120,60,15,5}",
      description =
          "Requests per second of each Envoy, repeated over --envoys (env SLUICE_BENCH_DEMAND,"
              + " default ${DEFAULT-VALUE}).")
  List<Double> demand;

  @Option(
      names = "--report-interval",
      defaultValue = "${env:SLUICE_BENCH_REPORT_INTERVAL:-1s}",
      converter = Converters.DurationConverter.class,
      description =
          "The simulated filters' reporting_interval (env SLUICE_BENCH_REPORT_INTERVAL, default"
              + " ${DEFAULT-VALUE}).")
  Duration reportInterval;

  @Option(
      names = "--bucket",
      split = ",",
      defaultValue = "${env:SLUICE_BENCH_BUCKET:-name=api}",
      description =
          "The BucketId map, k=v[,k=v...] (env SLUICE_BENCH_BUCKET, default ${DEFAULT-VALUE}).")
  List<String> bucket;

  @Option(
      names = "--limit",
      defaultValue = "${env:SLUICE_BENCH_LIMIT:-0}",
      description =
          "The bucket's limit per second, to compare with; 0 = not shown (env SLUICE_BENCH_LIMIT).")
  double limit;

  @Option(
      names = "--leave-at",
      converter = Converters.DurationConverter.class,
      defaultValue = "${env:SLUICE_BENCH_LEAVE_AT}",
      description = "The first Envoy stops then (env SLUICE_BENCH_LEAVE_AT).")
  Duration leaveAt;

  @Option(
      names = "--arrive-at",
      converter = Converters.DurationConverter.class,
      defaultValue = "${env:SLUICE_BENCH_ARRIVE_AT}",
      description = "The last Envoy starts then (env SLUICE_BENCH_ARRIVE_AT).")
  Duration arriveAt;

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  RlqsBench.Settings toSettings(String defaultTarget, String domain, Duration duration) {
    if (envoys < 1 || demand.isEmpty()) {
      throw new IllegalArgumentException("--envoys and --demand need at least one: " + envoys);
    }
    if (reportInterval.toMillis() < 100) {
      throw new IllegalArgumentException("--report-interval must be >= 100ms: " + reportInterval);
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (String pair : bucket) {
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
        targets == null || targets.isEmpty() ? List.of(defaultTarget) : targets,
        domain,
        map,
        demands,
        reportInterval,
        duration,
        limit,
        Optional.ofNullable(leaveAt),
        Optional.ofNullable(arriveAt));
  }
}
