package dev.sluice.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every entry of {@code rules/invalid/} (a file, or a directory loaded as a whole) and exactly the
 * problems it must produce, written as the operator sees them with the directory prefix removed.
 */
class InvalidRuleFilesTest {
  private static final String UNITS = "expected second, minute, hour, day, week, month or year";

  private static final Map<String, List<String>> EXPECTED = new TreeMap<>();

  static {
    expect("missing_domain.yaml", "1: config file cannot have empty domain");
    expect("empty_domain.yaml", "1: config file cannot have empty domain");
    expect("domain_not_text.yaml", "1: domain must be text, found a list");
    expectInDirectory(
        "duplicate_domain", "b.yaml:2: duplicate domain 'edge' (also in duplicate_domain/a.yaml)");
    expect("missing_key.yaml", "5: descriptor has no key");
    expect("empty_key.yaml", "3: descriptor has empty key");
    expect(
        "duplicate_key_value.yaml", "9: duplicate descriptor 'edge.method_GET' (first at line 3)");
    expect(
        "duplicate_key_only.yaml",
        "5: duplicate descriptor 'edge.remote_address' (first at line 3)");
    expect(
        "duplicate_wildcard.yaml",
        "8: duplicate descriptor 'edge.path.method_GE*' (first at line 5)");
    expect("unknown_unit.yaml", "5: invalid rate limit unit 'foo'; " + UNITS);
    expect("missing_unit.yaml", "5: rate_limit has no unit; " + UNITS);
    expect(
        "unknown_field_in_rate_limit.yaml",
        "6: unknown field 'requestsperunit' in rate_limit (did you mean 'requests_per_unit'?)");
    expect(
        "unknown_field_in_descriptor.yaml",
        "4: unknown field 'ratelimit' in a descriptor (did you mean 'rate_limit'?)");
    expect("unknown_field_at_top_level.yaml", "2: unknown field 'version' at the top level");
    expect(
        "unknown_field_in_replaces.yaml",
        "8: unknown field 'rule' in a replaces entry",
        "8: should not have an empty replaces entry");
    expect(
        "misplaced_unit_in_descriptor.yaml",
        "4: field 'unit' belongs in rate_limit, not in a descriptor",
        "6: rate_limit has no unit; " + UNITS);
    expect(
        "misplaced_key_at_top_level.yaml",
        "2: field 'key' belongs in a descriptor, not at the top level");
    expect(
        "misplaced_shadow_mode_in_rate_limit.yaml",
        "7: field 'shadow_mode' belongs in a descriptor, not in rate_limit");
    expect("unlimited_with_unit.yaml", "6: should not specify rate limit unit when unlimited");
    expect("unlimited_with_burst.yaml", "6: should not specify burst when unlimited");
    expect(
        "replaces_own_name.yaml",
        "9: replaces should not contain name of same descriptor 'per_user'");
    expect("replaces_empty_name.yaml", "9: should not have an empty replaces entry");
    expect("replaces_missing_name.yaml", "9: should not have an empty replaces entry");
    expectNumber("requests_per_unit", 6);
    expectNumber("burst", 8);
    expect(
        "burst_on_fixed_window.yaml",
        "8: burst applies only to token_bucket, but this rule uses fixed_window");
    expect(
        "burst_on_default_algorithm.yaml",
        "7: burst applies only to token_bucket, but this rule uses fixed_window"
            + " (the default algorithm)");
    expect(
        "unknown_algorithm.yaml",
        "5: invalid algorithm 'leaky_bucket'; expected fixed_window, token_bucket or sliding_window");
    expect(
        "burst_on_sliding_window.yaml",
        "8: burst applies only to token_bucket, but this rule uses sliding_window");
    expect(
        "sliding_window_per_week.yaml",
        "6: sliding_window counts per second, minute, hour or day, not per week");
    expect(
        "share_threshold_without_wildcard.yaml",
        "5: share_threshold can only be used with wildcard values (containing '*'),"
            + " but found key 'path_/api'");
    expect(
        "rate_limit_and_rate_limits.yaml",
        "7: a descriptor has either rate_limit or rate_limits, not both (rate_limit at line 4)");
    expect(
        "empty_rate_limits.yaml",
        "4: rate_limits is empty; give it one limit or more, each with a unit");
    expect(
        "rate_limits_same_unit_and_algorithm.yaml",
        "9: rate_limits has two limits per minute counted by fixed_window (first at line 5);"
            + " they would count the same hits twice");
    expect(
        "unlimited_in_rate_limits.yaml",
        "7: a rate_limits item cannot be unlimited; write rate_limit: {unlimited: true} instead");
    expect(
        "non_boolean_charge_denied.yaml",
        "4: charge_denied must be true or false, found 'sometimes'");
    expect("descriptors_not_a_list.yaml", "3: descriptors must be a list, found a map");
    expect("descriptor_not_a_map.yaml", "3: a descriptor must be a map, found 'remote_address'");
    expect("rate_limit_not_a_map.yaml", "4: rate_limit must be a map, found '10/second'");
    expect(
        "empty_rate_limit.yaml",
        "4: rate_limit is empty; give it a unit and requests_per_unit, or unlimited");
    expect("key_is_a_list.yaml", "3: key must be text, found a list");
    expect("replaces_not_a_list.yaml", "7: replaces must be a list, found 'per_ip'");
    expect("top_level_list.yaml", "1: a rule file must be a map, found a list");
    expect("metadata_not_a_map.yaml", "4: metadata must be a map, found a list");
    expect("non_boolean_shadow_mode.yaml", "4: shadow_mode must be true or false, found 'maybe'");
    expect(
        "quoted_boolean_unlimited.yaml",
        "5: unlimited must be true or false, found the quoted text 'true'");
    expect(
        "merge_not_a_map.yaml",
        "5: '<<' must merge a map or a list of maps, found 'second'",
        "5: rate_limit has no unit; " + UNITS);
    expect("duplicate_field.yaml", "7: duplicate field 'unit' (first at line 5)");
    expect("recursive_alias.yaml", "2: recursive alias: a node may not contain itself");
    expect(
        "multiple_documents.yaml",
        "6: a second YAML document; a rule file holds one (one domain per file)");
    expect(
        "syntax_error.yaml",
        "5: invalid YAML at column 8: expected ',' or '}', but got :"
            + " (while parsing a flow mapping started at line 4)");
    expect(
        "tab_indentation.yaml",
        "4: invalid YAML at column 1: found character '\\t(TAB)' that cannot start any token."
            + " (Do not use \\t(TAB) for indentation) (while scanning for the next token)");
    expect("empty.yaml", " config file is empty; it must set a domain");
    expect("comments_only.yaml", " config file is empty; it must set a domain");
    expect("not_utf8.yaml", " file is not valid UTF-8 text");
  }

  /** {@code lines} are "LINE: message" (or " message" for line 0), as printed after "FILE:". */
  private static void expect(String entry, String... lines) {
    EXPECTED.put(entry, Stream.of(lines).map(line -> entry + ":" + line).toList());
  }

  /** {@code problems} are "FILE:LINE: message" for files inside the directory {@code dir}. */
  private static void expectInDirectory(String dir, String... problems) {
    EXPECTED.put(dir, Stream.of(problems).map(problem -> dir + "/" + problem).toList());
  }

  private static void expectNumber(String field, int line) {
    String prefix = line + ": " + field + " must be ";
    expect("negative_" + field + ".yaml", prefix + ">= 0: -3");
    expect("fractional_" + field + ".yaml", prefix + "a whole number: 1.5");
    expect("non_numeric_" + field + ".yaml", prefix + "a number, found 'ten'");
    expect("too_large_" + field + ".yaml", prefix + "<= 4294967295: 4294967296");
    expect("hex_" + field + ".yaml", prefix + "a plain decimal number: 0x10");
    expect("quoted_" + field + ".yaml", prefix + "a number, found the quoted text '10'");
  }

  private final RuleLoader loader = new RuleLoader(Algorithm.FIXED_WINDOW);

  static Stream<String> entries() {
    return EXPECTED.keySet().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("entries")
  void load_invalidEntry_failsWithExactlyItsProblems(String entry) throws URISyntaxException {
    Path dir = invalidDir();
    LoadResult result = loader.load(dir.resolve(entry));

    assertThat(result).isInstanceOf(LoadResult.Failed.class);
    List<String> shown =
        ((LoadResult.Failed) result)
            .problems().stream().map(p -> p.toString().replace(dir + "/", "")).toList();
    assertThat(shown).containsExactlyElementsOf(EXPECTED.get(entry));
  }

  @Test
  void invalidDirectory_everyEntryHasExpectedProblems() throws IOException, URISyntaxException {
    try (Stream<Path> entries = Files.list(invalidDir())) {
      List<String> names = entries.map(p -> p.getFileName().toString()).sorted().toList();
      assertThat(names).containsExactlyElementsOf(EXPECTED.keySet());
    }
  }

  @Test
  void load_wholeInvalidDirectory_reportsEveryFileSortedByFileThenLine() throws URISyntaxException {
    Path dir = invalidDir();
    LoadResult result = loader.load(dir);

    assertThat(result).isInstanceOf(LoadResult.Failed.class);
    List<RuleProblem> problems = ((LoadResult.Failed) result).problems();
    List<String> shown = problems.stream().map(p -> p.toString().replace(dir + "/", "")).toList();
    // Loaded together, most files also clash on domain 'edge' (so the duplicate_domain directory
    // names another first file); each file's own problems remain.
    EXPECTED.forEach(
        (entry, expected) -> {
          if (entry.endsWith(".yaml")) {
            assertThat(shown).containsAll(expected);
          }
        });
    assertThat(problems)
        .isSortedAccordingTo(
            Comparator.comparing(RuleProblem::file).thenComparingInt(RuleProblem::line));
  }

  static Path invalidDir() throws URISyntaxException {
    return Path.of(InvalidRuleFilesTest.class.getResource("/rules/invalid").toURI());
  }
}
