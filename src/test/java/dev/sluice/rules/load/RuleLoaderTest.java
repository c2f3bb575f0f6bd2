package dev.sluice.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.Unit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What valid rule text loads into, and how problems are collected and shown. */
class RuleLoaderTest {
  @TempDir Path dir;

  private final RuleLoader loader = new RuleLoader(Algorithm.FIXED_WINDOW);

  @Test
  void load_minimalRule_usesDefaultAlgorithmAndOriginOfKey() throws IOException {
    Path file =
        write(
            """
            domain: edge
            descriptors:
              - key: remote_address
                rate_limit: { unit: Second, requests_per_unit: 10 }
            """);

    Rule rule = onlyRule(loader.load(file));

    assertThat(rule.limit()).contains(Limit.of(10, Unit.SECOND, Algorithm.FIXED_WINDOW));
    assertThat(rule.origin()).isEqualTo(file + ":3");
    assertThat(rule.name()).isEmpty();
  }

  @Test
  void load_tokenBucketDefault_appliesWhereNoAlgorithmIsNamed() throws IOException {
    Path file =
        write(
            """
            domain: edge
            descriptors:
              - key: a
                rate_limit: { unit: second, requests_per_unit: 10, burst: 30 }
              - key: b
                rate_limit: { unit: second, requests_per_unit: 10 }
              - key: c
                rate_limit: { unit: second, requests_per_unit: 10, algorithm: FIXED_WINDOW }
            """);

    RuleSet rules = loaded(new RuleLoader(Algorithm.TOKEN_BUCKET).load(file)).rules();

    assertThat(limitOf(rules, "a"))
        .isEqualTo(new Limit(10, Unit.SECOND, Algorithm.TOKEN_BUCKET, 30));
    assertThat(limitOf(rules, "b"))
        .isEqualTo(new Limit(10, Unit.SECOND, Algorithm.TOKEN_BUCKET, 10));
    assertThat(limitOf(rules, "c")).isEqualTo(Limit.of(10, Unit.SECOND, Algorithm.FIXED_WINDOW));
  }

  @Test
  void load_tokenBucketWithoutBurst_burstEqualsRate() throws IOException {
    Path file =
        write(
            """
            domain: edge
            descriptors:
              - key: a
                rate_limit: { unit: minute, requests_per_unit: 60, algorithm: token_bucket }
            """);

    assertThat(onlyRule(loader.load(file)).limit())
        .contains(new Limit(60, Unit.MINUTE, Algorithm.TOKEN_BUCKET, 60));
  }

  @Test
  void load_zeroOrMissingRequestsPerUnit_isABlockRule() throws IOException {
    Path file =
        write(
            """
            domain: edge
            descriptors:
              - key: a
                rate_limit: { unit: second, requests_per_unit: 0 }
              - key: b
                rate_limit: { unit: second }
            """);

    RuleSet rules = loaded(loader.load(file)).rules();

    assertThat(limitOf(rules, "a").requestsPerUnit()).isZero();
    assertThat(limitOf(rules, "b").requestsPerUnit()).isZero();
  }

  @Test
  void load_unlimitedWithRequestsPerUnitButNoUnit_ignoresTheNumber() throws IOException {
    Path file =
        write(
            """
            domain: edge
            descriptors:
              - key: internal
                rate_limit: { unlimited: true, requests_per_unit: 10 }
            """);

    Rule rule = onlyRule(loader.load(file));

    assertThat(rule.unlimited()).isTrue();
    assertThat(rule.limit()).isEmpty();
  }

  @Test
  void load_domainWithoutDescriptors_isValid() throws IOException {
    write("absent.yaml", "domain: a\n");
    write("null.yaml", "domain: b\ndescriptors:\n");
    write("list.yaml", "domain: c\ndescriptors: []\n");

    assertThat(loaded(loader.load(dir)).rules().domains()).containsExactly("a", "b", "c");
  }

  @Test
  void load_descriptorWithoutRateLimitOrChildren_matchesWithoutCounting() throws IOException {
    Path file =
        write(
            """
            domain: edge
            descriptors:
              - key: remote_address
                value: 10.0.0.1
            """);

    RuleSet rules = loaded(loader.load(file)).rules();

    assertThat(rules.match("edge", List.of(new Entry("remote_address", "10.0.0.1"))))
        .hasValueSatisfying(match -> assertThat(match.rule().counted()).isFalse());
    assertThat(rules.rules()).isEmpty();
  }

  @Test
  void load_flagsAndMetadata_readFlagsAndIgnoreMetadata() throws IOException {
    Path file =
        write(
            """
            domain: edge
            descriptors:
              - key: a
                shadow_mode: true
                quota_mode: yes
                detailed_metric: false
                value_to_metric: on
                metadata: { owner: team-a, tags: [x, y], nested: { any: [1, 2] } }
                rate_limit: { unit: second, requests_per_unit: 1 }
            """);

    Rule rule = onlyRule(loader.load(file));

    assertThat(rule.flags().shadowMode()).isTrue();
    assertThat(rule.flags().quotaMode()).isTrue();
    assertThat(rule.flags().detailedMetric()).isFalse();
    assertThat(rule.flags().valueToMetric()).isTrue();
  }

  @Test
  void load_nonStringScalars_areReadAsWritten() throws IOException {
    Path file =
        write(
            """
            domain: 2024
            descriptors:
              - key: version
                value: 1.10
                rate_limit: { unit: second, requests_per_unit: 1 }
              - key: zip
                value: 01234
                rate_limit: { unit: second, requests_per_unit: 1 }
            """);

    RuleSet rules = loaded(loader.load(file)).rules();

    assertThat(rules.domains()).containsExactly("2024");
    assertThat(rules.match("2024", List.of(new Entry("version", "1.10")))).isPresent();
    assertThat(rules.match("2024", List.of(new Entry("version", "1.1")))).isEmpty();
    assertThat(rules.match("2024", List.of(new Entry("zip", "01234")))).isPresent();
  }

  @Test
  void load_emptyValue_isTheKeyOnlyDescriptor() throws IOException {
    Path file =
        write(
            """
            domain: edge
            descriptors:
              - key: user
                value: ""
                rate_limit: { unit: second, requests_per_unit: 1 }
            """);

    Rule rule = onlyRule(loader.load(file));

    assertThat(rule.path()).isEqualTo("user");
  }

  @Test
  void load_sameKeyValueUnderDifferentParents_isNotADuplicate() throws IOException {
    Path file =
        write(
            """
            domain: edge
            descriptors:
              - key: a
                descriptors:
                  - key: x
                    rate_limit: { unit: second, requests_per_unit: 1 }
              - key: b
                descriptors:
                  - key: x
                    rate_limit: { unit: second, requests_per_unit: 2 }
              - key: x
                rate_limit: { unit: second, requests_per_unit: 3 }
            """);

    assertThat(loaded(loader.load(file)).rules().rules())
        .extracting(Rule::path)
        .containsExactly("a.x", "b.x", "x");
  }

  @Test
  void load_yamlMergeKeys_applyAnchoredFieldsAndLetOwnFieldsWin() throws IOException {
    Path file =
        write(
            """
            domain: edge
            descriptors:
              - key: a
                rate_limit: &per_second { unit: second, requests_per_unit: 10 }
              - key: b
                rate_limit:
                  <<: *per_second
                  requests_per_unit: 20
            """);

    RuleSet rules = loaded(loader.load(file)).rules();

    assertThat(limitOf(rules, "a")).isEqualTo(Limit.of(10, Unit.SECOND, Algorithm.FIXED_WINDOW));
    assertThat(limitOf(rules, "b")).isEqualTo(Limit.of(20, Unit.SECOND, Algorithm.FIXED_WINDOW));
  }

  @Test
  void load_strayDocumentSeparators_areIgnored() throws IOException {
    Path file = write("---\ndomain: edge\n---\n");

    assertThat(loaded(loader.load(file)).rules().domains()).containsExactly("edge");
  }

  @Test
  void load_fileWithSeveralProblems_reportsAllInLineOrder() throws IOException {
    Path file =
        write(
            """
            domain: edge
            descriptors:
              - key: a
                rate_limit: { unit: fortnight, requests_per_unit: 10 }
              - key: b
                shadow_mode: sometimes
              - value: orphan
            """);

    LoadResult result = loader.load(file);

    assertThat(result).isInstanceOf(LoadResult.Failed.class);
    assertThat(((LoadResult.Failed) result).problems())
        .extracting(RuleProblem::line)
        .containsExactly(4, 6, 7);
  }

  @Test
  void ruleProblem_toString_isFileLineMessageOrFileMessage() {
    Path file = Path.of("rules", "edge.yaml");

    assertThat(new RuleProblem(file, 7, "descriptor has empty key"))
        .hasToString("rules/edge.yaml:7: descriptor has empty key");
    assertThat(new RuleProblem(file, 0, "config file is empty"))
        .hasToString("rules/edge.yaml: config file is empty");
  }

  private Path write(String text) throws IOException {
    return write("rules.yaml", text);
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private static LoadResult.Loaded loaded(LoadResult result) {
    assertThat(result).isInstanceOf(LoadResult.Loaded.class);
    return (LoadResult.Loaded) result;
  }

  private static Rule onlyRule(LoadResult result) {
    List<Rule> rules = loaded(result).rules().rules();
    assertThat(rules).hasSize(1);
    return rules.get(0);
  }

  private static Limit limitOf(RuleSet rules, String key) {
    return rules
        .match("edge", List.of(new Entry(key, "any")))
        .orElseThrow()
        .rule()
        .limit()
        .orElseThrow();
  }
}
