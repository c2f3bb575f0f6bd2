package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code replay} and {@code explain} read rules with the rule flags as {@code serve} and {@code
 * check} do: a token bucket under {@code --default-consistency synced} is the same FILE:LINE error
 * in all four (both tools ignored the flag and ran rules serve would not load).
 */
class RuleFlagsTest {
  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(Callable<Integer> command, String... args) {
    CommandLine commandLine = new CommandLine(command);
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    return commandLine.execute(args);
  }

  private Path bucketRules() throws Exception {
    Path rules = Files.createDirectory(dir.resolve("rules"));
    Files.writeString(
        rules.resolve("a.yaml"),
        """
        domain: a
        descriptors:
          - key: user
            rate_limit: {unit: minute, requests_per_unit: 5, algorithm: token_bucket}
        """);
    return rules;
  }

  @Test
  void replay_defaultConsistencySynced_tokenBucketRefusedAsServeWould() throws Exception {
    Path rules = bucketRules();
    Path capture = Files.writeString(dir.resolve("capture.jsonl"), "");
    String[] args = {"--config", rules.toString(), "--input", capture.toString()};
    assertThat(run(new ReplayCommand(), args)).isZero();

    String[] synced = {
      "--config", rules.toString(), "--input", capture.toString(), "--default-consistency", "synced"
    };
    assertThat(run(new ReplayCommand(), synced)).isEqualTo(1);
    assertThat(err.toString()).contains("a.yaml:").contains("(the default consistency)");
  }

  @Test
  void explain_defaultConsistencySynced_tokenBucketRefusedAsServeWould() throws Exception {
    Path rules = bucketRules();
    String[] synced = {
      "--config",
      rules.toString(),
      "--domain",
      "a",
      "--descriptor",
      "user=alice",
      "--default-consistency",
      "synced"
    };
    assertThat(run(new ExplainCommand(), synced)).isEqualTo(1);
    assertThat(err.toString()).contains("a.yaml:").contains("(the default consistency)");
  }
}
