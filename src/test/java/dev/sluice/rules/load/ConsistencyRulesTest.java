package dev.sluice.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Rule;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rate_limit.consistency}: read beside {@code algorithm}, defaulted by the loader, and a
 * {@code FILE:LINE} error where the algorithm cannot be counted that way. Invalid files live in
 * {@code rules/invalid_consistency/}.
 */
class ConsistencyRulesTest {
  private final RuleLoader loader = new RuleLoader(Algorithm.FIXED_WINDOW);

  @TempDir Path dir;

  private List<Rule> load(RuleLoader with, String yaml) throws IOException {
    Path file = Files.writeString(dir.resolve("rules.yaml"), yaml);
    LoadResult result = with.load(file);
    assertThat(result).isInstanceOf(LoadResult.Loaded.class);
    return ((LoadResult.Loaded) result).rules().rules();
  }

  private static Consistency consistencyOf(List<Rule> rules, String path) {
    return rules.stream()
        .filter(r -> r.path().equals(path))
        .findFirst()
        .flatMap(Rule::limit)
        .map(Limit::consistency)
        .orElseThrow();
  }

  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: synced
          rate_limit: {unit: minute, requests_per_unit: 10, consistency: synced}
        - key: split
          rate_limit: {unit: minute, requests_per_unit: 10, consistency: SPLIT, algorithm: token_bucket}
        - key: plain
          rate_limit: {unit: minute, requests_per_unit: 10}
      """;

  @Test
  void load_consistencyField_setsEachLimitsMode() throws IOException {
    List<Rule> rules = load(loader, RULES);

    assertThat(consistencyOf(rules, "synced")).isEqualTo(Consistency.SYNCED);
    assertThat(consistencyOf(rules, "split")).isEqualTo(Consistency.SPLIT);
    assertThat(consistencyOf(rules, "plain")).isEqualTo(Consistency.EXACT);
  }

  @Test
  void load_defaultConsistency_appliesOnlyWhereARuleNamesNone() throws IOException {
    List<Rule> rules = load(loader.withDefaultConsistency(Consistency.SPLIT), RULES);

    assertThat(consistencyOf(rules, "synced")).isEqualTo(Consistency.SYNCED);
    assertThat(consistencyOf(rules, "plain")).isEqualTo(Consistency.SPLIT);
  }

  @Test
  void load_syncedOnAnUnsupportedAlgorithm_isAFileLineError() throws URISyntaxException {
    assertProblems(
        loader,
        "synced_token_bucket.yaml",
        "8: consistency synced counts only fixed_window, but this rule uses token_bucket; set"
            + " consistency: exact or split");
    assertProblems(
        loader,
        "synced_sliding_window.yaml",
        "8: consistency synced counts only fixed_window, but this rule uses sliding_window; set"
            + " consistency: exact or split");
  }

  @Test
  void load_defaultSyncedOnTokenBucket_namesTheDefault() throws URISyntaxException {
    assertProblems(
        loader.withDefaultConsistency(Consistency.SYNCED),
        "default_synced_on_token_bucket.yaml",
        "5: consistency synced (the default consistency) counts only fixed_window, but this rule"
            + " uses token_bucket; set consistency: exact or split");
  }

  @Test
  void load_unknownOrMisplacedConsistency_isAFileLineError() throws URISyntaxException {
    assertProblems(
        loader,
        "unknown_consistency.yaml",
        "7: invalid consistency 'eventual'; expected exact, synced or split");
    assertProblems(
        loader,
        "consistency_when_unlimited.yaml",
        "6: should not specify consistency when unlimited");
  }

  private static void assertProblems(RuleLoader with, String file, String... expected)
      throws URISyntaxException {
    Path invalid =
        Path.of(ConsistencyRulesTest.class.getResource("/rules/invalid_consistency").toURI());
    LoadResult result = with.load(invalid.resolve(file));
    assertThat(result).isInstanceOf(LoadResult.Failed.class);
    List<String> shown =
        ((LoadResult.Failed) result)
            .problems().stream().map(p -> p.toString().replace(invalid + "/", "")).toList();
    assertThat(shown)
        .containsExactlyElementsOf(List.of(expected).stream().map(e -> file + ":" + e).toList());
  }
}
