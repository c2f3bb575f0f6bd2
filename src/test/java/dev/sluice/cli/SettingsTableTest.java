package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.Setting;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The settings table of {@code docs/settings.md} and {@code serve --help} are derived from the
 * declarations: a row per setting, with its flag, env twin and default; only the meaning column is
 * prose. On a difference the message lists the rows as they should start.
 */
class SettingsTableTest {
  private static final Path DOC = Path.of("docs/settings.md");

  /** The first three cells of a setting's row: flag, env twin, default. */
  static String rowStart(Setting<?> setting) {
    String dflt =
        setting
            .defaultText()
            .filter(text -> !text.isEmpty())
            .map(t -> "`" + t + "`")
            .orElse("none");
    return "| `" + setting.flag() + "` | `" + setting.env() + "` | " + dflt + " |";
  }

  /** The table's rows that document a flag of serve (not those of other commands). */
  private static List<String> flagRows() throws IOException {
    List<String> rows = new ArrayList<>();
    for (String line : Files.readAllLines(DOC)) {
      if (line.startsWith("| `--") && !line.contains("(`sluice ")) {
        rows.add(line);
      }
    }
    return rows;
  }

  @Test
  void docsTable_hasOneRowPerServeSetting_withItsEnvTwinAndDefault() throws IOException {
    List<String> expected = SettingOptions.SERVE.stream().map(SettingsTableTest::rowStart).toList();
    List<String> actual = flagRows().stream().map(SettingsTableTest::start).toList();

    assertThat(actual)
        .as(
            "rows of %s; each must start as listed (a note in brackets after the default is kept)",
            DOC)
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void docsTable_everyRowHasAMeaning() throws IOException {
    assertThat(flagRows())
        .allSatisfy(row -> assertThat(row.split(" \\| ", 4)[3]).hasSizeGreaterThan(5));
  }

  @Test
  void serveHelp_showsEveryFlagWithItsEnvTwinAndDefault() {
    StringWriter help = new StringWriter();
    CommandLine serve = new CommandLine(new ServeCommand());
    serve.setOut(new PrintWriter(help));
    serve.setUsageHelpWidth(2000);
    serve.execute("--help");

    assertThat(help.toString().lines())
        .as("one help line per setting")
        .anySatisfy(line -> assertThat(line).contains("--near-limit-ratio=<near-limit-ratio>"));
    for (Setting<?> setting : SettingOptions.SERVE) {
      String dflt = setting.defaultText().filter(text -> !text.isEmpty()).orElse("none");
      assertThat(help.toString())
          .contains(setting.flag())
          .contains("(env " + setting.env() + ", default " + dflt + ").");
    }
  }

  /** A row's flag, env and default cells, without a note in brackets after the default. */
  private static String start(String row) {
    String[] cells = row.split(" \\| ", 4);
    String dflt = cells[2].replaceAll(" \\(.*\\)$", "");
    return cells[0] + " | " + cells[1] + " | " + dflt + " |";
  }
}
