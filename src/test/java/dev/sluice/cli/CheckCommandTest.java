package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code sluice check} on an empty rule directory (issue 11 item 5). */
class CheckCommandTest {
  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int check(String... args) {
    CommandLine commandLine = new CommandLine(new CheckCommand());
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    return commandLine.execute(args);
  }

  @Test
  void check_emptyDirectory_exitsOneSayingWhy() {
    assertThat(check("--config", dir.toString())).isEqualTo(1);
    assertThat(err.toString()).contains(dir + ": no rules found").contains("--allow-empty-rules");
  }

  @Test
  void check_emptyDirectoryWithAllowEmptyRules_exitsZero() {
    assertThat(check("--config", dir.toString(), "--allow-empty-rules")).isEqualTo(0);
    assertThat(out.toString()).startsWith("OK: 0 file(s), 0 domain(s), 0 rule(s)");
  }
}
