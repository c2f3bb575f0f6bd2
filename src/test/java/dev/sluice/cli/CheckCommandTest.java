package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code sluice check}: an empty rule directory (issue 11 item 5), and each rule in words. */
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

  @Test
  void check_validRules_printsEachRulesWindowInWords() throws IOException {
    Files.writeString(
        dir.resolve("api.yaml"),
        """
        domain: api
        descriptors:
          - key: quarter
            rate_limit: {unit: minute, unit_multiplier: 15, requests_per_unit: 100}
          - key: plan
            rate_limit: {unit: month, time_zone: Europe/Berlin, requests_per_unit: 3}
          - key: user
            rate_limits:
              - {unit: second, requests_per_unit: 10}
              - {unit: hour, unit_multiplier: 6, requests_per_unit: 1000, algorithm: token_bucket, burst: 50}
          - key: free
            rate_limit: {unlimited: true}
          - key: parent
            descriptors:
              - key: child
                rate_limit: {unit: month, requests_per_unit: 1}
        """);

    assertThat(check("--config", dir.toString())).isEqualTo(0);
    assertThat(out.toString().lines().skip(1))
        .containsExactly(
            "  api.free: unlimited",
            "  api.parent.child: 1 per month (30 days), fixed_window",
            "  api.plan: 3 per calendar month in Europe/Berlin, fixed_window",
            "  api.quarter: 100 per 15 minutes, fixed_window",
            "  api.user: 10 per second, fixed_window; 1000 per 6 hours, token_bucket, burst 50");
  }

  @Test
  void check_bucket_saysWhichRuleItReachesAndTheAssignment() throws IOException {
    Files.writeString(
        dir.resolve("edge.yaml"),
        """
        domain: edge
        descriptors:
          - key: name
            value: api
            descriptors:
              - key: env
                rate_limit: {unit: second, requests_per_unit: 100}
          - key: tenant
            rate_limit: {unit: minute, requests_per_unit: 0}
        """);

    int code =
        check(
            "--config",
            dir.toString(),
            "--domain",
            "edge",
            "--bucket",
            "env=prod,name=api;tenant=t1;name=other");

    assertThat(code).isEqualTo(0);
    assertThat(out.toString())
        .contains(
            "bucket {env=prod, name=api} -> edge.name_api.env (100 per second, fixed_window):"
                + " token buckets, max-min fair shares of 100.0/s")
        .contains("bucket {tenant=t1} -> edge.tenant (0 per minute, fixed_window): DENY_ALL")
        .contains("bucket {name=other} -> no rule: ALLOW_ALL");
  }
}
