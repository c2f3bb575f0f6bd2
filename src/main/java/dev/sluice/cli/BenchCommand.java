package dev.sluice.cli;

import dev.sluice.bench.BenchConfig;
import dev.sluice.bench.BenchResult;
import dev.sluice.bench.LoadGenerator;
import dev.sluice.bench.RequestTemplate;
import dev.sluice.config.SettingValues;
import dev.sluice.rlqs.RlqsBench;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Load-generates ShouldRateLimit requests against an RLS server and prints what it measured. */
@Command(
    modelTransformer = SettingOptions.Bench.class,
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

  @Override
  public Integer call() throws InterruptedException {
    SettingValues values = SettingOptions.values(spec);
    if (values.get(BenchSettings.RLQS_ENABLED)) {
      RlqsBench.Settings settings;
      try {
        settings =
            new RlqsBenchOptions(values)
                .toSettings(
                    values.get(BenchSettings.TARGET).toString(),
                    values.get(BenchSettings.DOMAIN),
                    values.get(BenchSettings.DURATION));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      RlqsBench.run(settings, spec.commandLine().getOut());
      return 0;
    }
    BenchConfig config = toConfig(values);
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
    if (values.get(BenchSettings.JSON)) {
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

  private BenchConfig toConfig(SettingValues values) {
    try {
      RequestTemplate requests =
          new RequestTemplate(
              values.get(BenchSettings.DOMAIN),
              values.get(BenchSettings.DESCRIPTOR),
              values.get(BenchSettings.DESCRIPTORS_PER_REQUEST),
              values.get(BenchSettings.HITS_ADDEND));
      return new BenchConfig(
          values.get(BenchSettings.TARGET),
          values.get(BenchSettings.CONCURRENCY),
          values.get(BenchSettings.CHANNELS),
          values.get(BenchSettings.RATE),
          values.get(BenchSettings.WARMUP),
          values.get(BenchSettings.DURATION),
          values.get(BenchSettings.DEADLINE),
          requests,
          values.get(BenchSettings.KEYS));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
