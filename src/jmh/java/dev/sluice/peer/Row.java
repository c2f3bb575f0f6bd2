package dev.sluice.peer;

import dev.sluice.bench.LatencySummary;
import java.time.Duration;
import java.util.Locale;

/** One measured row of the comparison table. */
record Row(
    String peer,
    Scenario scenario,
    int threads,
    Duration measured,
    long allowed,
    long refused,
    long errors,
    String firstError,
    LatencySummary latency,
    RedisInfo redis,
    long clientCpuNanos) {

  long decisions() {
    return allowed + refused;
  }

  double perSecond() {
    return decisions() / (measured.toNanos() / 1e9);
  }

  static String header() {
    return String.format(
        Locale.ROOT,
        "| %-28s | %-6s | %-12s | %7s | %12s | %9s | %6s | %8s | %8s | %11s | %10s | %10s | %11s | %8s | %8s |",
        "peer",
        "keys",
        "outcome",
        "threads",
        "decisions/s",
        "refused %",
        "errors",
        "p50 µs",
        "p99 µs",
        "redis µs/dec",
        "reads/dec",
        "cmds/dec",
        "client µs/dec",
        "×bucket4j",
        "×redisson");
  }

  /** This row, with its throughput as a multiple of the peers' in the same scenario and threads. */
  String line(double vsBucket4j, double vsRedisson) {
    double decisions = Math.max(1, decisions());
    return String.format(
        Locale.ROOT,
        "| %-28s | %-6s | %-12s | %7d | %12.0f | %9.1f | %6d | %8.1f | %8.1f | %11.2f | %10.3f | %10.2f | %11.1f | %8s | %8s |",
        peer,
        scenario.keys,
        scenario.outcome,
        threads,
        perSecond(),
        100.0 * refused / decisions,
        errors,
        latency.p50Nanos() / 1e3,
        latency.p99Nanos() / 1e3,
        redis.cpuSeconds() * 1e6 / decisions,
        redis.reads() / decisions,
        redis.commands() / decisions,
        clientCpuNanos / 1e3 / decisions,
        ratio(vsBucket4j),
        ratio(vsRedisson));
  }

  private static String ratio(double value) {
    return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.1f×", value);
  }
}
