package dev.sluice.testing;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Valid rules written inline as text blocks, loaded through the real {@link RuleLoader} so tests of
 * matching and limiting see exactly what {@code sluice serve} would:
 *
 * <pre>{@code
 * RuleSet rules = InlineRules.load("""
 *     domain: api
 *     descriptors:
 *       - key: user
 *         rate_limit: {unit: minute, requests_per_unit: 5}
 *     """);
 * }</pre>
 */
public final class InlineRules {
  private InlineRules() {}

  /**
   * Loads one rule file per argument (one domain each) with {@code fixed_window} as the default.
   *
   * @throws AssertionError listing every problem when the text is not valid rules
   */
  public static RuleSet load(String... files) {
    Path dir = null;
    try {
      dir = Files.createTempDirectory("sluice-inline-rules");
      for (int i = 0; i < files.length; i++) {
        Files.writeString(dir.resolve("rules-" + i + ".yaml"), files[i]);
      }
      LoadResult result = new RuleLoader(Algorithm.FIXED_WINDOW).load(dir);
      if (result instanceof LoadResult.Failed failed) {
        throw new AssertionError("inline rules are invalid: " + failed.problems());
      }
      return ((LoadResult.Loaded) result).rules();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      delete(dir);
    }
  }

  private static void delete(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
