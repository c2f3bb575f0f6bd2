package dev.sluice.jmh;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Rule sets for the benchmarks, loaded through the real loader. */
final class BenchmarkRules {
  /** The demo rules, relative to the repository root. */
  static final Path DEMO = Path.of("config/rules/edge.yaml");

  /** Exact values in the generated domain. */
  static final int EXACT_VALUES = 1000;

  /** Wildcard values in the generated domain, all tried in file order before the key-only rule. */
  static final int WILDCARDS = 50;

  /** Outer values of the generated three-level tree; each has {@link #NESTED_INNER} inner ones. */
  static final int NESTED_OUTER = 100;

  static final int NESTED_INNER = 10;

  private BenchmarkRules() {}

  static RuleSet demo() {
    if (!Files.isRegularFile(DEMO)) {
      throw new IllegalStateException(
          "run the benchmarks from the repository root: " + DEMO.toAbsolutePath() + " is missing");
    }
    return load(DEMO);
  }

  /**
   * Domain {@code gen}: {@value #EXACT_VALUES} exact {@code tenant} values, {@value #WILDCARDS}
   * wildcards {@code w<i>-*}, a key-only {@code tenant} fallback, and {@code org -> team -> user}
   * nested three deep.
   */
  static RuleSet generated() {
    StringBuilder yaml = new StringBuilder("domain: gen\ndescriptors:\n");
    for (int i = 0; i < EXACT_VALUES; i++) {
      yaml.append("  - key: tenant\n    value: t").append(i).append('\n');
      yaml.append("    rate_limit: {unit: minute, requests_per_unit: ")
          .append(100 + i)
          .append("}\n");
    }
    for (int i = 0; i < WILDCARDS; i++) {
      yaml.append("  - key: tenant\n    value: \"w").append(i).append("-*\"\n");
      yaml.append("    rate_limit: {unit: second, requests_per_unit: 10}\n");
    }
    yaml.append("  - key: tenant\n    rate_limit: {unit: hour, requests_per_unit: 1000}\n");
    for (int i = 0; i < NESTED_OUTER; i++) {
      yaml.append("  - key: org\n    value: o").append(i).append("\n    descriptors:\n");
      for (int j = 0; j < NESTED_INNER; j++) {
        yaml.append("      - key: team\n        value: x").append(j).append('\n');
        yaml.append("        descriptors:\n          - key: user\n");
        yaml.append("            rate_limit: {unit: minute, requests_per_unit: 60}\n");
      }
    }
    return loadText(yaml.toString());
  }

  /** Domain {@code bench} with one key-only rule on {@code user}. */
  static RuleSet single(String rateLimitFlow) {
    return loadText(
        "domain: bench\ndescriptors:\n  - key: user\n    rate_limit: " + rateLimitFlow + "\n");
  }

  private static RuleSet loadText(String yaml) {
    try {
      Path file = Files.createTempFile("sluice-jmh", ".yaml");
      Files.writeString(file, yaml);
      try {
        return load(file);
      } finally {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static RuleSet load(Path path) {
    LoadResult result = new RuleLoader(Algorithm.FIXED_WINDOW).load(path);
    if (result instanceof LoadResult.Failed failed) {
      throw new IllegalStateException("benchmark rules do not load: " + failed.problems());
    }
    return ((LoadResult.Loaded) result).rules();
  }
}
