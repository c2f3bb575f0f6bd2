package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sluice replay} on bad input: one {@code FILE:LINE: problem} line on stderr and exit 1, as
 * {@code check} reports a bad rule; no stack trace, no report.
 */
class ReplayCommandTest {
  private static final String GOOD =
      "{\"ts\":1700000000000,\"domain\":\"shop\",\"descriptors\":[{\"entries\":"
          + "[{\"key\":\"user\",\"value\":\"a\"}]}]}";

  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private Path rules;

  @BeforeEach
  void rules() throws Exception {
    rules = Files.createDirectory(dir.resolve("rules"));
    Files.writeString(
        rules.resolve("shop.yaml"),
        """
        domain: shop
        descriptors:
          - key: user
            rate_limit: {unit: second, requests_per_unit: 1}
        """);
  }

  private int replay(String... extra) {
    CommandLine commandLine = new CommandLine(new ReplayCommand());
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    String[] args = new String[extra.length + 2];
    args[0] = "--config";
    args[1] = rules.toString();
    System.arraycopy(extra, 0, args, 2, extra.length);
    return commandLine.execute(args);
  }

  @Test
  void replay_descriptorNotAnObject_exitsOneWithFileLineProblem() throws Exception {
    Path capture = dir.resolve("capture.jsonl");
    Files.writeString(capture, GOOD + "\n{\"ts\":1,\"domain\":\"d\",\"descriptors\":[1]}\n");

    assertThat(replay("--input", capture.toString())).isEqualTo(1);

    assertThat(err.toString())
        .isEqualTo(capture + ":2: 'descriptors[0]' must be an object, found the number 1\n");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void replay_lineOverMaxLineBytes_exitsOneNamingTheFlag() throws Exception {
    Path capture = dir.resolve("capture.jsonl");
    Files.writeString(capture, GOOD + "\n" + GOOD + " ".repeat(150) + "\n");

    assertThat(replay("--input", capture.toString(), "--max-line-bytes", "200")).isEqualTo(1);

    assertThat(err.toString())
        .isEqualTo(capture + ":2: line is longer than the limit of 200 bytes (--max-line-bytes)\n");
  }

  @Test
  void replay_maxLineBytesZero_isAUsageError() throws Exception {
    Path capture = Files.writeString(dir.resolve("capture.jsonl"), GOOD + "\n");

    assertThat(replay("--input", capture.toString(), "--max-line-bytes", "0"))
        .isEqualTo(Main.USAGE);
    assertThat(err.toString()).contains("--max-line-bytes must be >= 1: 0");
  }

  @Test
  void replay_missingInput_exitsOneSayingSo() {
    Path missing = dir.resolve("nothing.jsonl");

    assertThat(replay("--input", missing.toString())).isEqualTo(1);

    assertThat(err.toString())
        .isEqualTo("sluice: cannot read --input " + missing + ": NoSuchFileException\n");
  }

  @Test
  void replay_goodCapture_printsTheReport() throws Exception {
    Path capture = Files.writeString(dir.resolve("capture.jsonl"), GOOD + "\n" + GOOD + "\n");

    assertThat(replay("--input", capture.toString())).isZero();

    assertThat(out.toString()).startsWith("2 requests over 0.0 s simulated");
    assertThat(err.toString()).isEmpty();
  }
}
