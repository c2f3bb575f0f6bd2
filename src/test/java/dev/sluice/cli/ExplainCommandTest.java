package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code sluice explain --json} prints what the admin port prints: proto3 JSON, unescaped. */
class ExplainCommandTest {
  @TempDir Path dir;

  @Test
  void json_counterKey_isNotHtmlEscaped() throws Exception {
    Path rules = Files.createDirectory(dir.resolve("rules"));
    Files.writeString(
        rules.resolve("ops.yaml"),
        """
        domain: ops
        descriptors:
          - key: user
            rate_limit: {unit: hour, requests_per_unit: 5}
        """);
    StringWriter out = new StringWriter();
    CommandLine command = new CommandLine(new ExplainCommand());
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(new StringWriter(), true));

    int code =
        command.execute(
            "--config",
            rules.toString(),
            "--domain",
            "ops",
            "--descriptor",
            "user=wendy",
            "--json");

    assertThat(code).isZero();
    assertThat(out.toString()).contains("user=wendy").doesNotContain("\\u003d");
    String key =
        JsonParser.parseString(out.toString())
            .getAsJsonObject()
            .getAsJsonArray("descriptors")
            .get(0)
            .getAsJsonObject()
            .getAsJsonObject("counter")
            .get("key")
            .getAsString();
    assertThat(key).endsWith("|ops|user=wendy");
  }

  @Test
  void bucket_saysWhichRuleItReaches_withoutADescriptor() throws Exception {
    Path rules = Files.createDirectory(dir.resolve("rules"));
    Files.writeString(
        rules.resolve("ops.yaml"),
        """
        domain: ops
        descriptors:
          - key: user
            descriptors:
              - key: name
                value: api
                rate_limit: {unit: hour, requests_per_unit: 5}
        """);
    StringWriter out = new StringWriter();
    CommandLine command = new CommandLine(new ExplainCommand());
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(new StringWriter(), true));

    int code =
        command.execute(
            "--config", rules.toString(), "--domain", "ops", "--bucket", "name=api,user=u1");

    assertThat(code).isZero();
    assertThat(out.toString())
        .startsWith("bucket {name=api, user=u1} -> ops.user.name_api (5 per hour, fixed_window)");
  }

  @Test
  void neitherDescriptorNorBucket_usageError() throws Exception {
    Path rules = Files.createDirectory(dir.resolve("rules"));
    Files.writeString(
        rules.resolve("ops.yaml"),
        "domain: ops\ndescriptors:\n  - key: user\n    rate_limit: {unit: hour, requests_per_unit: 5}\n");
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new ExplainCommand());
    command.setErr(new PrintWriter(err, true));

    int code = command.execute("--config", rules.toString(), "--domain", "ops");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--descriptor or --bucket is required");
  }
}
