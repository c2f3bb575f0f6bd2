package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.Setting;
import dev.sluice.config.SettingValues;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The tools' tables (bench and bench-server in {@code docs/benchmarks.md}, explain, replay and call
 * in {@code docs/tools.md}, check in {@code docs/settings.md}) are derived from the declarations as
 * serve's table is: one row per setting, with its flags, env twin and default. Rows naming several
 * of serve's flags at once ({@code --config}, {@code --default-algorithm}) point at serve's table
 * and are left out.
 */
class ToolSettingsTableTest {
  private static final Set<String> SERVE_FLAGS =
      SettingOptions.SERVE.stream().map(Setting::flag).collect(Collectors.toSet());

  /** Flags, env twin, default: as a row of a tool's table must start. */
  static String rowStart(Setting<?> setting) {
    String flags =
        Stream.concat(Stream.of(setting.flag()), setting.form().aliases().stream())
            .map(flag -> "`" + flag + "`")
            .collect(Collectors.joining(", "));
    String dflt =
        setting.isRequired()
            ? "required"
            : setting
                .defaultText()
                .filter(t -> !t.isEmpty())
                .map(t -> "`" + t + "`")
                .orElse("none");
    return "| " + flags + " | `" + setting.env() + "` | " + dflt + " |";
  }

  /** Each tool row's start, without a note in brackets after the flags or the default. */
  private static List<String> toolRows(String doc) throws IOException {
    List<String> rows = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(doc))) {
      if (!line.startsWith("| `--")) {
        continue;
      }
      String[] cells = line.split(" \\| ", 4);
      String flags = cells[0].replaceAll(" \\(.*\\)$", "");
      String first = flags.substring(3, flags.indexOf('`', 3));
      boolean servesShared = SERVE_FLAGS.contains(first) && flags.contains("`, `");
      if (!servesShared) {
        rows.add(flags + " | " + cells[1] + " | " + cells[2].replaceAll(" \\(.*\\)$", "") + " |");
      }
    }
    return rows;
  }

  private static List<String> starts(List<Setting<?>> settings) {
    return settings.stream().map(ToolSettingsTableTest::rowStart).toList();
  }

  @Test
  void benchmarksTable_hasOneRowPerBenchAndBenchServerSetting() throws IOException {
    List<Setting<?>> all = new ArrayList<>(BenchSettings.BENCH);
    all.addAll(BenchSettings.RLQS);
    all.addAll(BenchSettings.SERVER);

    assertThat(toolRows("docs/benchmarks.md"))
        .as("rows of docs/benchmarks.md; each must start as listed")
        .containsExactlyInAnyOrderElementsOf(starts(all));
  }

  @Test
  void toolsTables_haveOneRowPerExplainReplayAndCallSetting() throws IOException {
    List<Setting<?>> all = new ArrayList<>(ToolSettings.EXPLAIN);
    all.addAll(ToolSettings.CALL);
    all.addAll(ToolSettings.REPLAY);

    assertThat(toolRows("docs/tools.md"))
        .as("rows of docs/tools.md; each must start as listed")
        .containsExactlyInAnyOrderElementsOf(starts(all));
  }

  @Test
  void settingsTable_hasTheRowsMarkedAsCheckAndReplay() throws IOException {
    List<Setting<?>> all = new ArrayList<>(ToolSettings.CHECK);
    all.add(ToolSettings.REPLAY_MAX_LINE_BYTES);

    assertThat(
            Files.readAllLines(Path.of("docs/settings.md")).stream()
                .filter(line -> line.contains("(`sluice "))
                .map(line -> line.replaceFirst(" \\(`sluice [a-z-]+`\\)", ""))
                .map(ToolSettingsTableTest::withoutNotes)
                .toList())
        .as("the rows of docs/settings.md marked (`sluice check`) or (`sluice replay`)")
        .containsExactlyInAnyOrderElementsOf(starts(all));
  }

  private static String withoutNotes(String row) {
    String[] cells = row.split(" \\| ", 4);
    return cells[0] + " | " + cells[1] + " | " + cells[2].replaceAll(" \\(.*\\)$", "") + " |";
  }

  @Test
  void benchHelp_showsEachFlagWithItsEnvTwinAndDefault() {
    StringWriter help = new StringWriter();
    CommandLine bench = new CommandLine(new BenchCommand());
    bench.setOut(new PrintWriter(help));
    bench.setUsageHelpWidth(2000);
    bench.execute("--help");

    assertThat(help.toString()).contains("--timeout, --deadline=<deadline>");
    for (Setting<?> setting : BenchSettings.BENCH) {
      String dflt = setting.defaultText().filter(text -> !text.isEmpty()).orElse("none");
      assertThat(help.toString()).contains("(env " + setting.env() + ", default " + dflt + ").");
    }
  }

  @Test
  void envTwin_setsAToolSetting_andTheFlagWinsOverIt() {
    CommandLine bench = new CommandLine(new BenchCommand());
    bench.setDefaultValueProvider(
        ReferenceEnvironment.of(
            Map.of("SLUICE_BENCH_TIMEOUT", "7s", "SLUICE_BENCH_DEMAND", "1,2")));
    bench.parseArgs("--demand", "3", "--demand", "4");
    SettingValues values = SettingOptions.values(bench.getCommandSpec());

    assertThat(values.get(BenchSettings.DEADLINE)).isEqualTo(Duration.ofSeconds(7));
    assertThat(values.get(BenchSettings.DEMAND)).containsExactly(3.0, 4.0);
  }

  @Test
  void requiredSetting_givenByItsEnvTwin_isEnough() {
    CommandLine replay = new CommandLine(new ReplayCommand());
    replay.setDefaultValueProvider(
        ReferenceEnvironment.of(Map.of("SLUICE_REPLAY_INPUT", "capture.jsonl")));
    replay.parseArgs();

    assertThat(SettingOptions.values(replay.getCommandSpec()).get(ToolSettings.REPLAY_INPUT))
        .isEqualTo(Path.of("capture.jsonl"));
  }

  @Test
  void requiredSetting_missing_isAUsageError() {
    assertThat(Main.run("call", "--descriptor", "a=b")).isEqualTo(Main.USAGE);
  }
}
