package dev.sluice.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.InlineRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The matching table of {@link RuleSet#match}: precedence at one level, wildcards, depth,
 * backtracking, exemptions, shared counters. Rules are named by their path ({@code key_value} per
 * level, levels joined by {@code .}), so each row reads "this request lands on that descriptor".
 */
class RuleSetTest {
  private static final String NO_MATCH = "-";

  /** One key with every kind of candidate; wildcards listed broad-before-narrow on purpose. */
  private static final RuleSet PRECEDENCE =
      InlineRules.load(
          """
          domain: precedence
          descriptors:
            - key: k
              rate_limit: {unit: second, requests_per_unit: 1}
            - key: k
              value: "a*"
              rate_limit: {unit: second, requests_per_unit: 2}
            - key: k
              value: "ab*"
              rate_limit: {unit: second, requests_per_unit: 3}
            - key: k
              value: abc
              rate_limit: {unit: second, requests_per_unit: 4}
            - key: narrow_first
              value: "ab*"
              rate_limit: {unit: second, requests_per_unit: 5}
            - key: narrow_first
              value: "a*"
              rate_limit: {unit: second, requests_per_unit: 6}
          """);

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          k=abc            | k_abc
          k=abd            | k_a*
          k=axx            | k_a*
          k=zzz            | k
          k=               | k
          narrow_first=abd | narrow_first_ab*
          narrow_first=axx | narrow_first_a*
          narrow_first=zzz | -
          other=abc        | -
          """)
  void match_oneLevel_exactBeatsFirstWildcardInFileOrderBeatsKeyOnly(
      String request, String expected) {
    assertThat(matchedPath(PRECEDENCE, "precedence", request)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} vs {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          bar*b       | barab           | true
          bar*b       | barb            | true
          bar*b       | bar123b         | true
          bar*b       | bara            | false
          bar*b       | xbarb           | false
          bar*b       | barbx           | false
          foo*        | foo             | true
          foo*        | foo1            | true
          foo*        | bar             | false
          foo*        | xfoo            | false
          *bar        | bar             | true
          *bar        | foobar          | true
          *bar        | barx            | false
          a*a         | a               | false
          a*a         | aa              | true
          a*a         | aba             | true
          foo*bar*baz | foo123bar456baz | true
          foo*bar*baz | foobarbaz       | true
          foo*bar*baz | foobarbazbarbaz | true
          foo*bar*baz | foo123baz       | false
          foo*bar*baz | bar456baz       | false
          foo*bar*baz | foobazbar       | false
          a*b*bc      | axbbc           | true
          a*b*bc      | axbc            | false
          a**b        | ab              | true
          *-*         | x-y             | true
          *-*         | xy              | false
          *           | anything        | true
          """)
  void match_wildcardValue_starMatchesAnyRunAnywhere(
      String pattern, String value, boolean matches) {
    RuleSet rules =
        InlineRules.load(
            """
            domain: wild
            descriptors:
              - key: k
                value: "%s"
                rate_limit: {unit: second, requests_per_unit: 1}
            """
                .formatted(pattern));

    assertThat(rules.match("wild", List.of(new Entry("k", value))).isPresent()).isEqualTo(matches);
    assertThat(rules.matchOrNull("wild", List.of(new Entry("k", value))) != null)
        .isEqualTo(matches);
  }

  /**
   * Past {@value WildcardIndex#SCAN_ALL_UP_TO} wildcards a key group looks candidates up by prefix
   * and suffix instead of testing each: every shape of pattern, in a file order where a broad one
   * comes before narrower ones, must still give the first pattern in file order that matches.
   */
  @ParameterizedTest(name = "k={0}")
  @CsvSource({
    "abcxyz", "abz", "az", "a", "z", "mmm", "xq", "q", "abyz", "p3-", "p3-zz", "p12-1", "none",
    "''", "abcmxyz", "yz"
  })
  void match_manyWildcards_firstMatchingPatternInFileOrder(String value) {
    List<String> patterns =
        new ArrayList<>(
            List.of(
                "a*z", "abc*", "*yz", "ab*", "*m*", "x*", "*q", "a*", "*z", "abc*xyz", "ab*yz"));
    for (int i = 0; i < 20; i++) {
      patterns.add("p" + i + "-*");
    }
    patterns.add("*");
    StringBuilder yaml = new StringBuilder("domain: many\ndescriptors:\n");
    for (String pattern : patterns) {
      yaml.append("  - key: k\n    value: \"").append(pattern).append("\"\n");
      yaml.append("    rate_limit: {unit: second, requests_per_unit: 1}\n");
    }
    RuleSet rules = InlineRules.load(yaml.toString());
    String expected =
        patterns.stream()
            .filter(pattern -> new WildcardPattern(pattern).matches(value))
            .findFirst()
            .map(pattern -> "k_" + pattern)
            .orElse(NO_MATCH);

    assertThat(matchedPath(rules, "many", "k=" + value)).isEqualTo(expected);
  }

  @Test
  void match_exactValueWithoutStar_matchesOnlyThatValue() {
    RuleSet rules =
        InlineRules.load(
            """
            domain: d
            descriptors:
              - key: k
                value: foo
                rate_limit: {unit: second, requests_per_unit: 1}
            """);

    assertThat(rules.match("d", entries("k=foo"))).isPresent();
    assertThat(rules.match("d", entries("k=foo1"))).isEmpty();
    assertThat(rules.match("d", entries("k=fo"))).isEmpty();
  }

  @Test
  void match_keyOnly_countsEachValueOnItsOwnCounter() {
    Match zed = PRECEDENCE.match("precedence", entries("k=zed")).orElseThrow();
    Match bob = PRECEDENCE.match("precedence", entries("k=bob")).orElseThrow();

    assertThat(zed.rule().path()).isEqualTo("k");
    assertThat(zed.rule()).isSameAs(bob.rule());
    assertThat(zed.counterEntries()).isEqualTo(entries("k=zed"));
    assertThat(bob.counterEntries()).isEqualTo(entries("k=bob"));
  }

  @Test
  void match_wildcardWithoutShareThreshold_countsEachValueOnItsOwnCounter() {
    Match match = PRECEDENCE.match("precedence", entries("k=axx")).orElseThrow();

    assertThat(match.counterEntries()).isEqualTo(entries("k=axx"));
  }

  private static final RuleSet NESTED =
      InlineRules.load(
          """
          domain: nested
          descriptors:
            - key: a
              rate_limit: {unit: second, requests_per_unit: 1}
              descriptors:
                - key: b
                  rate_limit: {unit: second, requests_per_unit: 2}
                  descriptors:
                    - key: c
                      rate_limit: {unit: second, requests_per_unit: 3}
            - key: only_inner
              descriptors:
                - key: b
                  rate_limit: {unit: second, requests_per_unit: 4}
          """);

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          a=1                  | a
          a=1 b=2              | a.b
          a=1 b=2 c=3          | a.b.c
          a=1 b=2 c=3 d=4      | -
          a=1 c=3              | -
          b=2                  | -
          only_inner=1 b=2     | only_inner.b
          only_inner=1         | -
          only_inner=1 b=2 c=3 | -
          """)
  void match_depth_lastEntryDecidesAndLongerRequestsMatchNothing(String request, String expected) {
    assertThat(matchedPath(NESTED, "nested", request)).isEqualTo(expected);
  }

  /**
   * Where the reference stops at the first candidate, Sluice tries the next one at that level:
   * exact, then wildcards in file order, then key-only.
   */
  private static final RuleSet BACKTRACKING =
      InlineRules.load(
          """
          domain: bt
          descriptors:
            - key: user
              value: alice
              descriptors:
                - key: action
                  value: upload
                  rate_limit: {unit: second, requests_per_unit: 1}
                - key: action
                  value: view
            - key: user
              value: "ali*"
              descriptors:
                - key: action
                  value: download
                  rate_limit: {unit: second, requests_per_unit: 2}
            - key: user
              rate_limit: {unit: second, requests_per_unit: 3}
              descriptors:
                - key: action
                  rate_limit: {unit: second, requests_per_unit: 4}
            - key: user
              value: root
          """);

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          user=alice action=upload   | user_alice.action_upload
          user=alice action=download | user_ali*.action_download
          user=alice action=delete   | user.action
          user=alina action=download | user_ali*.action_download
          user=alina action=upload   | user.action
          user=bob action=upload     | user.action
          user=alice                 | user
          user=alina                 | user
          user=alice action=view     | user_alice.action_view
          user=root                  | user_root
          user=root action=upload    | user.action
          """)
  void match_preferredCandidateCannotFinish_backtracksToTheNextCandidateAtThatLevel(
      String request, String expected) {
    assertThat(matchedPath(BACKTRACKING, "bt", request)).isEqualTo(expected);
  }

  @Test
  void match_leafWithoutRateLimit_isAnExemptionAndDoesNotFallBack() {
    Match root = BACKTRACKING.match("bt", entries("user=root")).orElseThrow();
    Match view = BACKTRACKING.match("bt", entries("user=alice action=view")).orElseThrow();

    for (Match exempt : List.of(root, view)) {
      assertThat(exempt.rule().counted()).isFalse();
      assertThat(exempt.rule().unlimited()).isFalse();
      assertThat(exempt.rule().limit()).isEmpty();
    }
  }

  @Test
  void match_backtracking_takesTheLimitOfTheNodeItLandsOn() {
    Match fallback = BACKTRACKING.match("bt", entries("user=alice action=delete")).orElseThrow();

    assertThat(fallback.rule().limit()).contains(Limit.of(4, Unit.SECOND, Algorithm.FIXED_WINDOW));
    assertThat(fallback.counterEntries()).isEqualTo(entries("user=alice action=delete"));
  }

  private static final RuleSet SHARED =
      InlineRules.load(
          """
          domain: shared
          descriptors:
            - key: path
              value: "/api/*"
              share_threshold: true
              rate_limit: {unit: minute, requests_per_unit: 100}
              descriptors:
                - key: method
                  rate_limit: {unit: minute, requests_per_unit: 10}
            - key: path
              value: /api/special
              rate_limit: {unit: minute, requests_per_unit: 1}
            - key: tenant
              descriptors:
                - key: path
                  value: "/t/*"
                  share_threshold: true
                  rate_limit: {unit: minute, requests_per_unit: 5}
          """);

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          path=/api/users                | path=/api/*
          path=/api/orders               | path=/api/*
          path=/api/users method=GET     | path=/api/* method=GET
          path=/api/special              | path=/api/special
          tenant=acme path=/t/x          | tenant=acme path=/t/*
          tenant=globex path=/t/y        | tenant=globex path=/t/*
          """)
  void match_shareThreshold_putsThePatternIntoTheCounterEntries(
      String request, String counterEntries) {
    Match match = SHARED.match("shared", entries(request)).orElseThrow();

    assertThat(match.counterEntries()).isEqualTo(entries(counterEntries));
    assertThat(SHARED.matchOrNull("shared", entries(request))).isEqualTo(match);
  }

  @Test
  void match_unknownDomainEmptyEntriesOrUnknownKey_isEmpty() {
    assertThat(PRECEDENCE.match("nope", entries("k=abc"))).isEmpty();
    assertThat(PRECEDENCE.match("precedence", List.of())).isEmpty();
    assertThat(PRECEDENCE.match("precedence", entries("unknown=x"))).isEmpty();
    assertThat(RuleSet.empty().match("precedence", entries("k=abc"))).isEmpty();
    assertThat(PRECEDENCE.matchOrNull("nope", entries("k=abc"))).isNull();
    assertThat(PRECEDENCE.matchOrNull("precedence", List.of())).isNull();
    assertThat(PRECEDENCE.matchOrNull("precedence", entries("unknown=x"))).isNull();
  }

  @Test
  void match_domainWithoutDescriptors_isKnownButMatchesNothing() {
    RuleSet rules = InlineRules.load("domain: bare\n");

    assertThat(rules.hasDomain("bare")).isTrue();
    assertThat(rules.match("bare", entries("k=v"))).isEmpty();
  }

  @Test
  void match_unlimitedRule_isAMatchWhoseRuleIsUnlimited() {
    RuleSet rules =
        InlineRules.load(
            """
            domain: d
            descriptors:
              - key: internal
                rate_limit: {unlimited: true, name: internal}
            """);

    Match match = rules.match("d", entries("internal=x")).orElseThrow();

    assertThat(match.rule().unlimited()).isTrue();
    assertThat(match.rule().counted()).isFalse();
    assertThat(match.rule().name()).isEqualTo("internal");
  }

  @Test
  void match_sameTreeInTwoDomains_staysInItsOwnDomain() {
    RuleSet rules =
        InlineRules.load(
            """
            domain: one
            descriptors:
              - key: k
                rate_limit: {unit: second, requests_per_unit: 1}
            """,
            """
            domain: two
            descriptors:
              - key: k
                rate_limit: {unit: hour, requests_per_unit: 2}
            """);

    assertThat(rules.match("one", entries("k=v")).orElseThrow().rule().domain()).isEqualTo("one");
    assertThat(rules.match("two", entries("k=v")).orElseThrow().rule().limit())
        .contains(Limit.of(2, Unit.HOUR, Algorithm.FIXED_WINDOW));
  }

  /**
   * The path of the rule {@code request} lands on, or {@code "-"} for no match. Every table row is
   * also matched with a tracer (what {@code sluice explain} shows): the traced walk must reach the
   * same rule, its one {@code MATCHED} step must be the last step and name that rule, and a failed
   * walk must have no {@code MATCHED} step.
   */
  private static String matchedPath(RuleSet rules, String domain, String request) {
    Optional<Match> match = rules.match(domain, entries(request));
    List<MatchStep> steps = new ArrayList<>();
    Optional<Match> traced = rules.match(domain, entries(request), steps::add);
    assertThat(traced).isEqualTo(match);
    assertThat(rules.matchOrNull(domain, entries(request))).isEqualTo(match.orElse(null));
    List<MatchStep> taken =
        steps.stream().filter(s -> s.outcome() == MatchStep.Outcome.MATCHED).toList();
    if (match.isPresent()) {
      assertThat(taken).containsExactly(steps.get(steps.size() - 1));
      assertThat(taken.get(0).rule()).contains(match.get().rule());
      assertThat(taken.get(0).depth()).isEqualTo(entries(request).size() - 1);
    } else {
      assertThat(taken).isEmpty();
    }
    return match.map(m -> m.rule().path()).orElse(NO_MATCH);
  }

  @Test
  void match_withTracer_reportsEveryCandidateInOrderIncludingBacktracking() {
    List<String> steps = new ArrayList<>();
    BACKTRACKING.match(
        "bt",
        entries("user=alice action=delete"),
        s ->
            steps.add(
                s.depth()
                    + " "
                    + s.candidate()
                    + " "
                    + s.configured()
                    + " "
                    + s.outcome()
                    + s.rule().map(r -> " " + r.path()).orElse("")));

    assertThat(steps)
        .containsExactly(
            "0 EXACT alice DESCEND user_alice",
            "1 EXACT delete NOT_CONFIGURED",
            "1 KEY_ONLY  NOT_CONFIGURED",
            "0 EXACT alice BACKTRACK user_alice",
            "0 WILDCARD ali* DESCEND user_ali*",
            "1 EXACT delete NOT_CONFIGURED",
            "1 KEY_ONLY  NOT_CONFIGURED",
            "0 WILDCARD ali* BACKTRACK user_ali*",
            "0 KEY_ONLY  DESCEND user",
            "1 EXACT delete NOT_CONFIGURED",
            "1 KEY_ONLY  MATCHED user.action");
  }

  @Test
  void match_withTracer_reportsMismatchedPatternsSkippedInnerNodesAndMissingKeys() {
    List<MatchStep.Outcome> precedence = new ArrayList<>();
    PRECEDENCE.match("precedence", entries("k=zzz"), s -> precedence.add(s.outcome()));
    List<MatchStep.Outcome> inner = new ArrayList<>();
    NESTED.match("nested", entries("only_inner=1"), s -> inner.add(s.outcome()));
    List<MatchStep.Outcome> unknown = new ArrayList<>();
    NESTED.match("nested", entries("a=1 z=2"), s -> unknown.add(s.outcome()));

    assertThat(precedence)
        .containsExactly(
            MatchStep.Outcome.NOT_CONFIGURED,
            MatchStep.Outcome.PATTERN_MISMATCH,
            MatchStep.Outcome.PATTERN_MISMATCH,
            MatchStep.Outcome.MATCHED);
    assertThat(inner)
        .containsExactly(
            MatchStep.Outcome.NOT_CONFIGURED, MatchStep.Outcome.INNER_WITHOUT_RATE_LIMIT);
    assertThat(unknown)
        .containsExactly(
            MatchStep.Outcome.NOT_CONFIGURED,
            MatchStep.Outcome.DESCEND,
            MatchStep.Outcome.NO_KEY,
            MatchStep.Outcome.BACKTRACK);
  }

  /** {@code "k1=v1 k2=v2"} as entries; a value may be empty ({@code "k="}). */
  private static List<Entry> entries(String text) {
    List<Entry> entries = new ArrayList<>();
    for (String pair : text.trim().split("\\s+")) {
      int eq = pair.indexOf('=');
      entries.add(new Entry(pair.substring(0, eq), pair.substring(eq + 1)));
    }
    return entries;
  }
}
