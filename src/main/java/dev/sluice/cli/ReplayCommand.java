package dev.sluice.cli;

import dev.sluice.replay.CaptureFile;
import dev.sluice.replay.ReplayReport;
import dev.sluice.replay.ReplayText;
import dev.sluice.replay.Replayer;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.load.LoadResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sluice replay}: a capture through the real decision code on a simulated clock, per rule;
 * with {@code --compare-config}, two rule sets side by side on the same traffic.
 */
@Command(
    modelTransformer = SettingOptions.Rules.class,
    name = "replay",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Replay captured requests against rules (memory store, simulated clock).")
final class ReplayCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--input",
      required = true,
      defaultValue = "${env:SLUICE_REPLAY_INPUT}",
      description = "Capture file, JSON lines (env SLUICE_REPLAY_INPUT).")
  Path input;

  @Option(
      names = "--compare-config",
      defaultValue = "${env:SLUICE_REPLAY_COMPARE_CONFIG}",
      description =
          "A second rule directory or file to compare with (env SLUICE_REPLAY_COMPARE_CONFIG).")
  Path compareConfig;

  @Option(
      names = "--speed",
      defaultValue = "${env:SLUICE_REPLAY_SPEED:-max}",
      description =
          "max (as fast as possible) or 1x (the capture's own pace) (env SLUICE_REPLAY_SPEED, default ${DEFAULT-VALUE}).")
  String speed;

  @Option(
      names = "--instances",
      defaultValue = "${env:SLUICE_REPLAY_INSTANCES:-1}",
      description =
          "Sluice instances sharing the store, requests round-robin (env SLUICE_REPLAY_INSTANCES, default ${DEFAULT-VALUE}).")
  int instances;

  @Option(
      names = "--max-line-bytes",
      defaultValue = "${env:SLUICE_REPLAY_MAX_LINE_BYTES:-1048576}",
      description =
          "Longest capture line read, bytes; a longer line fails the replay as FILE:LINE (env"
              + " SLUICE_REPLAY_MAX_LINE_BYTES, default ${DEFAULT-VALUE}).")
  int maxLineBytes;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Replayer.Settings settings;
    try {
      settings = new Replayer.Settings(rules().defaultAlgorithm(), instances, realTime());
      if (maxLineBytes < 1) {
        throw new IllegalArgumentException("--max-line-bytes must be >= 1: " + maxLineBytes);
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    Optional<RuleSet> a = load(rules().config(), err);
    Optional<RuleSet> b = compareConfig == null ? Optional.empty() : load(compareConfig, err);
    if (a.isEmpty() || (compareConfig != null && b.isEmpty())) {
      return 1;
    }
    try {
      ReplayReport first = replay(a.get(), settings);
      out.print(
          b.isEmpty()
              ? ReplayText.render(first)
              : ReplayText.compare(first, replay(b.get(), settings)));
    } catch (CaptureFile.BadLine e) {
      err.println(e.getMessage()); // FILE:LINE: problem, as check prints a bad rule
      return 1;
    } catch (IOException | UncheckedIOException e) {
      err.println("sluice: cannot read --input " + input + ": " + reason(e));
      return 1;
    }
    out.flush();
    return 0;
  }

  private static String reason(Exception e) {
    Throwable io = e instanceof UncheckedIOException ? e.getCause() : e;
    return io instanceof FileSystemException fs && fs.getReason() == null
        ? io.getClass().getSimpleName()
        : io.getMessage();
  }

  private boolean realTime() {
    return switch (speed) {
      case "max" -> false;
      case "1x" -> true;
      default -> throw new ParameterException(spec.commandLine(), "--speed is max or 1x: " + speed);
    };
  }

  private ReplayReport replay(RuleSet ruleSet, Replayer.Settings settings) throws Exception {
    try (CaptureFile capture = new CaptureFile(input, maxLineBytes)) {
      return Replayer.replay(ruleSet, capture, settings);
    }
  }

  private Optional<RuleSet> load(Path path, PrintWriter err) {
    // Read as serve and check read them, so a replay runs the rules a deployment would load.
    LoadResult result = rules().loader().load(path);
    if (result instanceof LoadResult.Failed failed) {
      failed.problems().forEach(err::println);
      return Optional.empty();
    }
    return Optional.of(((LoadResult.Loaded) result).rules());
  }

  private RulesOptions rules() {
    return new RulesOptions(SettingOptions.values(spec));
  }
}
