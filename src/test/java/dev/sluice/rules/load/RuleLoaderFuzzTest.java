package dev.sluice.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sluice.rules.Algorithm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * Arbitrary bytes as a rule file: the loader answers rules or problems that name the file (with a
 * line, or 0 when no line applies), and never throws or hangs (the fuzzer's per-input timeout
 * catches a hang). {@code mvn verify} replays the corpus under {@code
 * src/test/resources/dev/sluice/rules/load/RuleLoaderFuzzTestInputs/}; {@code JAZZER_FUZZ=1 mvn -P
 * fuzz -Dtest=RuleLoaderFuzzTest test} fuzzes.
 */
class RuleLoaderFuzzTest {
  private static final RuleLoader LOADER = new RuleLoader(Algorithm.FIXED_WINDOW, Set.of());

  @FuzzTest(maxDuration = "5m")
  void anyBytes_areRulesOrFileLineProblems(byte[] bytes) throws IOException {
    Path dir = Files.createTempDirectory("sluice-fuzz");
    Path file = dir.resolve("rules.yaml");
    try {
      Files.write(file, bytes);
      LoadResult result = LOADER.load(dir);
      if (result instanceof LoadResult.Failed failed) {
        assertThat(failed.problems())
            .isNotEmpty()
            .allSatisfy(
                problem -> {
                  assertThat(problem.file()).isIn(file, dir);
                  assertThat(problem.message()).isNotBlank();
                });
      } else {
        assertThat(((LoadResult.Loaded) result).files()).containsExactly(file);
      }
    } finally {
      Files.deleteIfExists(file);
      Files.deleteIfExists(dir);
    }
  }
}
