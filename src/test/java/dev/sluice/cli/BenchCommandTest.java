package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchCommandTest {
  private final StringWriter err = new StringWriter();

  private int execute(String... args) {
    CommandLine commandLine = new CommandLine(new Main());
    commandLine.setOut(new PrintWriter(new StringWriter()));
    commandLine.setErr(new PrintWriter(err));
    commandLine.setParameterExceptionHandler(
        (e, a) -> {
          e.getCommandLine().getErr().println(e.getMessage());
          return Main.USAGE;
        });
    return commandLine.execute(args);
  }

  @Test
  void bench_badKeys_usageErrorNamingTheValue() {
    assertThat(execute("bench", "--keys=warm")).isEqualTo(Main.USAGE);
    assertThat(err.toString()).contains("'warm'");
  }

  @Test
  void bench_badTarget_usageErrorNamingTheValue() {
    assertThat(execute("bench", "--target=nohost")).isEqualTo(Main.USAGE);
    assertThat(err.toString()).contains("'nohost'");
  }

  @Test
  void bench_zeroDescriptorsPerRequest_usageError() {
    assertThat(execute("bench", "--descriptors-per-request=0")).isEqualTo(Main.USAGE);
    assertThat(err.toString()).contains("descriptors per request must be >= 1: 0");
  }

  @Test
  void bench_negativeRate_usageError() {
    assertThat(execute("bench", "--rate=-5")).isEqualTo(Main.USAGE);
    assertThat(err.toString()).contains("rate must be >= 0");
  }

  @Test
  void help_listsBenchAndBenchServer() {
    StringWriter out = new StringWriter();
    CommandLine commandLine = new CommandLine(new Main());
    commandLine.setOut(new PrintWriter(out));
    commandLine.execute("--help");
    assertThat(out.toString()).contains("bench ").contains("bench-server");
  }
}
