package dev.sluice.cli;

import dev.sluice.config.SettingValues;
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
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sluice replay}: a capture through the real decision code on a simulated clock, per rule;
 * with {@code --compare-config}, two rule sets side by side on the same traffic.
 */
@Command(
    modelTransformer = SettingOptions.Replay.class,
    name = "replay",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Replay captured requests against rules (memory store, simulated clock).")
final class ReplayCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    SettingValues values = SettingOptions.values(spec);
    Path input = values.get(ToolSettings.REPLAY_INPUT);
    Path compareConfig = values.get(ToolSettings.REPLAY_COMPARE_CONFIG);
    int instances = values.get(ToolSettings.REPLAY_INSTANCES);
    int maxLineBytes = values.get(ToolSettings.REPLAY_MAX_LINE_BYTES);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Replayer.Settings settings;
    try {
      settings =
          new Replayer.Settings(
              rules().defaultAlgorithm(),
              instances,
              realTime(values.get(ToolSettings.REPLAY_SPEED)));
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
      ReplayReport first = replay(a.get(), new Capture(input, maxLineBytes), settings);
      out.print(
          b.isEmpty()
              ? ReplayText.render(first)
              : ReplayText.compare(
                  first, replay(b.get(), new Capture(input, maxLineBytes), settings)));
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

  private boolean realTime(String speed) {
    return switch (speed) {
      case "max" -> false;
      case "1x" -> true;
      default -> throw new ParameterException(spec.commandLine(), "--speed is max or 1x: " + speed);
    };
  }

  /** Where the captured requests are, and the longest line read. */
  private record Capture(Path input, int maxLineBytes) {}

  private static ReplayReport replay(RuleSet ruleSet, Capture from, Replayer.Settings settings)
      throws Exception {
    try (CaptureFile capture = new CaptureFile(from.input(), from.maxLineBytes())) {
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
