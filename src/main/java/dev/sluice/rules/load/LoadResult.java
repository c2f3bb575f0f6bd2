package dev.sluice.rules.load;

import dev.sluice.rules.RuleSet;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** The outcome of {@link RuleLoader#load}: every file valid, or the list of what is wrong. */
public sealed interface LoadResult permits LoadResult.Loaded, LoadResult.Failed {

  /**
   * Every rule file was valid.
   *
   * @param version hex prefix of a SHA-256 over the sorted (relative path, content) pairs: equal
   *     content gives an equal version, whatever the files' timestamps
   * @param files the files read, in load order (sorted by relative path); empty for an empty
   *     directory
   */
  record Loaded(RuleSet rules, String version, List<Path> files) implements LoadResult {
    public Loaded {
      Objects.requireNonNull(rules, "rules");
      Objects.requireNonNull(version, "version");
      files = List.copyOf(files);
    }
  }

  /**
   * At least one file was bad, so nothing was loaded: a partial rule set is never returned.
   *
   * @param problems every problem found in every file, sorted by file then line; never empty
   */
  record Failed(List<RuleProblem> problems) implements LoadResult {
    public Failed {
      problems = List.copyOf(problems);
      if (problems.isEmpty()) {
        throw new IllegalArgumentException("a failed load has at least one problem");
      }
    }
  }
}
