package dev.sluice.cli;

import dev.sluice.bench.BenchServer;
import dev.sluice.bench.KeyMode;
import dev.sluice.bench.RequestTemplate;
import dev.sluice.bench.Target;
import dev.sluice.config.Setting;
import dev.sluice.config.SettingText;
import dev.sluice.rules.Entry;
import java.time.Duration;
import java.util.List;

/**
 * The settings of {@code bench} (RLS calls, or simulated RLQS Envoys with {@code --rlqs}) and of
 * {@code bench-server}; documented in {@code docs/benchmarks.md}, in this order.
 */
final class BenchSettings {
  static final Setting<Target> TARGET =
      Setting.of(
          "--target",
          "SLUICE_BENCH_TARGET",
          "127.0.0.1:8081",
          Target::parse,
          "HOST:PORT of the RLS server");

  static final Setting<Integer> CONCURRENCY =
      Setting.integer(
          "--concurrency",
          "SLUICE_BENCH_CONCURRENCY",
          "64",
          "Requests in flight; with --rate the most in flight at once");

  static final Setting<Integer> CHANNELS =
      Setting.integer(
          "--channels",
          "SLUICE_BENCH_CHANNELS",
          "2",
          "gRPC channels (HTTP/2 connections) to spread requests over");

  static final Setting<Duration> DURATION =
      Setting.duration("--duration", "SLUICE_BENCH_DURATION", "10s", "Measured time");

  static final Setting<Duration> WARMUP =
      Setting.duration(
          "--warmup",
          "SLUICE_BENCH_WARMUP",
          "2s",
          "Load before the measurement, left out of the results; with --rate the rate ramps up"
              + " over it");

  static final Setting<Double> RATE =
      Setting.of(
          "--rate",
          "SLUICE_BENCH_RATE",
          "0",
          SettingText::doubleValue,
          "Open loop at this many requests per second; 0 = closed loop");

  static final Setting<String> DOMAIN =
      Setting.text("--domain", "SLUICE_BENCH_DOMAIN", "edge", "Request domain");

  static final Setting<List<Entry>> DESCRIPTOR =
      Setting.items(
              "--descriptor",
              "SLUICE_BENCH_DESCRIPTOR",
              RequestTemplate::parseEntry,
              "Descriptor entry, repeatable (or comma-separated), in order; a value may hold {key}"
                  + " (by default the key is the address)")
          .defaulting("remote_address=")
          .labelled("KEY=VALUE");

  static final Setting<Integer> DESCRIPTORS_PER_REQUEST =
      Setting.integer(
          "--descriptors-per-request",
          "SLUICE_BENCH_DESCRIPTORS_PER_REQUEST",
          "1",
          "Descriptors in each request");

  static final Setting<KeyMode> KEYS =
      Setting.of(
          "--keys",
          "SLUICE_BENCH_KEYS",
          "random",
          KeyMode::parse,
          "random (new value per request), hot (one value) or N (round-robin over N values)");

  static final Setting<Long> HITS_ADDEND =
      Setting.longValue(
          "--hits-addend",
          "SLUICE_BENCH_HITS_ADDEND",
          "0",
          "Request hits_addend; 0 = unset, counted as 1");

  static final Setting<Duration> DEADLINE =
      Setting.duration(
              "--deadline",
              "SLUICE_BENCH_TIMEOUT",
              "5s",
              "Deadline of each request, sent as grpc-timeout; goodput counts the answers within"
                  + " it")
          .alsoNamed("--timeout");

  static final Setting<Boolean> JSON =
      Setting.bool(
          "--json",
          "SLUICE_BENCH_JSON",
          false,
          "Print one JSON line to stdout (the readable summary goes to stderr)");

  static final Setting<Boolean> RLQS_ENABLED =
      Setting.bool(
          "--rlqs",
          "SLUICE_BENCH_RLQS",
          false,
          "Simulate Envoys with the rate_limit_quota filter on one bucket");

  static final Setting<List<String>> RLQS_TARGETS =
      Setting.list(
          "--rlqs-targets",
          "SLUICE_BENCH_RLQS_TARGETS",
          "HOST:PORT of each instance; Envoys are spread round-robin (none: --target)");

  static final Setting<Integer> ENVOYS =
      Setting.integer("--envoys", "SLUICE_BENCH_ENVOYS", "4", "Simulated Envoys");

  static final Setting<List<Double>> DEMAND =
      Setting.items(
              "--demand",
              "SLUICE_BENCH_DEMAND",
              SettingText::doubleValue,
              "Requests per second of each Envoy, repeated over --envoys")
          .defaulting("120,60,15,5");

  static final Setting<Duration> REPORT_INTERVAL =
      Setting.duration(
          "--report-interval",
          "SLUICE_BENCH_REPORT_INTERVAL",
          "1s",
          "The simulated filters' reporting_interval");

  static final Setting<List<String>> BUCKET =
      Setting.list("--bucket", "SLUICE_BENCH_BUCKET", "The BucketId map, k=v[,k=v...]")
          .defaulting("name=api");

  static final Setting<Double> LIMIT =
      Setting.of(
          "--limit",
          "SLUICE_BENCH_LIMIT",
          "0",
          SettingText::doubleValue,
          "The bucket's limit per second, to compare with; 0 = not shown");

  static final Setting<Duration> LEAVE_AT =
      Setting.unset(
          "--leave-at",
          "SLUICE_BENCH_LEAVE_AT",
          SettingText::duration,
          "The first Envoy stops then");

  static final Setting<Duration> ARRIVE_AT =
      Setting.unset(
          "--arrive-at",
          "SLUICE_BENCH_ARRIVE_AT",
          SettingText::duration,
          "The last Envoy starts then");

  static final Setting<Integer> SERVER_PORT =
      Setting.integer("--port", "SLUICE_BENCH_SERVER_PORT", "8081", "gRPC port, 0 = any free port");

  static final Setting<BenchServer.Transport> SERVER_TRANSPORT =
      Setting.of(
          "--transport",
          "SLUICE_BENCH_SERVER_TRANSPORT",
          "tuned",
          BenchServer.Transport::parse,
          "tuned = Sluice's gRPC settings (epoll event loops, handler on the event loop); default"
              + " = grpc-java's defaults");

  /** {@code bench}'s RLS settings. */
  static final List<Setting<?>> BENCH =
      List.of(
          TARGET,
          CONCURRENCY,
          CHANNELS,
          DURATION,
          WARMUP,
          RATE,
          DOMAIN,
          DESCRIPTOR,
          DESCRIPTORS_PER_REQUEST,
          KEYS,
          HITS_ADDEND,
          DEADLINE,
          JSON);

  /** {@code bench --rlqs}'s settings. */
  static final List<Setting<?>> RLQS =
      List.of(
          RLQS_ENABLED,
          RLQS_TARGETS,
          ENVOYS,
          DEMAND,
          REPORT_INTERVAL,
          BUCKET,
          LIMIT,
          LEAVE_AT,
          ARRIVE_AT);

  static final List<Setting<?>> SERVER = List.of(SERVER_PORT, SERVER_TRANSPORT);

  private BenchSettings() {}
}
