package dev.sluice.cli;

import dev.sluice.bench.BenchConfig;
import dev.sluice.bench.BenchResult;
import dev.sluice.bench.KeyMode;
import dev.sluice.bench.LoadGenerator;
import dev.sluice.bench.RequestTemplate;
import dev.sluice.bench.Target;
import dev.sluice.rlqs.RlqsBench;
import dev.sluice.rules.Entry;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Load-generates ShouldRateLimit requests against an RLS server and prints what it measured. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Send Envoy RLS v3 ShouldRateLimit requests to a server and print decisions/s, OK, OVER_LIMIT"
          + " and error counts and latency percentiles.",
      "Closed loop by default (--concurrency requests in flight); with --rate, open loop: requests"
          + " are due at fixed intervals and latency counts from the due time.",
      "The key value replaces {key} in a descriptor value, or is appended to the last entry's"
          + " value when no value holds {key}; with several descriptors per request, descriptor i"
          + " gets <key>.<i>."
    })
final class BenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--target",
      defaultValue = "${env:SLUICE_BENCH_TARGET:-127.0.0.1:8081}",
      converter = Converters.TargetConverter.class,
      description =
          "HOST:PORT of the RLS server (env SLUICE_BENCH_TARGET, default ${DEFAULT-VALUE}).")
  Target target;

  @Option(
      names = "--concurrency",
      defaultValue = "${env:SLUICE_BENCH_CONCURRENCY:-64}",
      description =
          "Requests in flight; with --rate the most in flight at once (env"
              + " SLUICE_BENCH_CONCURRENCY, default ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(
      names = "--channels",
      defaultValue = "${env:SLUICE_BENCH_CHANNELS:-2}",
      description =
          "gRPC channels (HTTP/2 connections) to spread requests over (env SLUICE_BENCH_CHANNELS,"
              + " default ${DEFAULT-VALUE}).")
  int channels;

  @Option(
      names = "--duration",
      defaultValue = "${env:SLUICE_BENCH_DURATION:-10s}",
      converter = Converters.DurationConverter.class,
      description = "Measured time (env SLUICE_BENCH_DURATION, default ${DEFAULT-VALUE}).")
  Duration duration;

  @Option(
      names = "--warmup",
      defaultValue = "${env:SLUICE_BENCH_WARMUP:-2s}",
      converter = Converters.DurationConverter.class,
      description =
          "Load before the measurement, left out of the results; with --rate the rate ramps up over"
              + " it (env SLUICE_BENCH_WARMUP, default ${DEFAULT-VALUE}).")
  Duration warmup;

  @Option(
      names = "--rate",
      defaultValue = "${env:SLUICE_BENCH_RATE:-0}",
      description =
          "Open loop at this many requests per second; 0 = closed loop (env SLUICE_BENCH_RATE,"
              + " default ${DEFAULT-VALUE}).")
  double rate;

  @Option(
      names = "--domain",
      defaultValue = "${env:SLUICE_BENCH_DOMAIN:-edge}",
      description = "Request domain (env SLUICE_BENCH_DOMAIN, default ${DEFAULT-VALUE}).")
  String domain;

  @Option(
      names = "--descriptor",
      split = ",",
      paramLabel = "KEY=VALUE",
      defaultValue = "${env:SLUICE_BENCH_DESCRIPTOR:-remote_address=}",
      converter = Converters.EntryConverter.class,
      description =
          "Descriptor entry, repeatable (or comma-separated), in order; a value may hold {key}"
              + " (env SLUICE_BENCH_DESCRIPTOR, default ${DEFAULT-VALUE}: the key is the address).")
  List<Entry> entries;

  @Option(
      names = "--descriptors-per-request",
      defaultValue = "${env:SLUICE_BENCH_DESCRIPTORS_PER_REQUEST:-1}",
      description =
          "Descriptors in each request (env SLUICE_BENCH_DESCRIPTORS_PER_REQUEST, default"
              + " ${DEFAULT-VALUE}).")
  int descriptorsPerRequest;

  @Option(
      names = "--keys",
      defaultValue = "${env:SLUICE_BENCH_KEYS:-random}",
      converter = Converters.KeyModeConverter.class,
      description =
          "random (new value per request), hot (one value) or N (round-robin over N values) (env"
              + " SLUICE_BENCH_KEYS, default ${DEFAULT-VALUE}).")
  KeyMode keys;

  @Option(
      names = "--hits-addend",
      defaultValue = "${env:SLUICE_BENCH_HITS_ADDEND:-0}",
      description =
          "Request hits_addend; 0 = unset, counted as 1 (env SLUICE_BENCH_HITS_ADDEND, default"
              + " ${DEFAULT-VALUE}).")
  long hitsAddend;

  @Option(
      names = {"--deadline", "--timeout"},
      defaultValue = "${env:SLUICE_BENCH_TIMEOUT:-5s}",
      converter = Converters.DurationConverter.class,
      description =
          "Deadline of each request, sent as grpc-timeout; goodput counts the answers within it"
              + " (env SLUICE_BENCH_TIMEOUT, default ${DEFAULT-VALUE}).")
  Duration timeout;

  @Option(
      names = "--json",
      defaultValue = "${env:SLUICE_BENCH_JSON:-false}",
      description =
          "Print one JSON line to stdout (the readable summary goes to stderr) (env"
              + " SLUICE_BENCH_JSON, default ${DEFAULT-VALUE}).")
  boolean json;

  @Mixin RlqsBenchOptions rlqs;

  @Override
  public Integer call() throws InterruptedException {
    if (rlqs.enabled) {
      RlqsBench.Settings settings;
      try {
        settings = rlqs.toSettings(target.toString(), domain, duration);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      RlqsBench.run(settings, spec.commandLine().getOut());
      return 0;
    }
    BenchConfig config = toConfig();
    PrintWriter err = spec.commandLine().getErr();
    BenchResult result =
        LoadGenerator.run(
            config,
            new LoadGenerator.Phases() {
              @Override
              public void measuring() {
                progress(err, "bench: measuring for " + config.duration().toMillis() + " ms");
              }

              @Override
              public void windowClosed() {
                progress(err, "bench: window closed, waiting for the answers in flight");
              }
            });
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      spec.commandLine().getErr().print(result.toText());
      spec.commandLine().getErr().flush();
      out.println(result.toJson());
    } else {
      out.print(result.toText());
    }
    out.flush();
    return 0;
  }

  /** Progress goes to stderr, so stdout stays the summary or the one JSON line. */
  private static void progress(PrintWriter err, String line) {
    err.println(line);
    err.flush();
  }

  private BenchConfig toConfig() {
    try {
      RequestTemplate requests =
          new RequestTemplate(domain, entries, descriptorsPerRequest, hitsAddend);
      return new BenchConfig(
          target, concurrency, channels, rate, warmup, duration, timeout, requests, keys);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
