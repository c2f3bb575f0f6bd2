package dev.sluice.rlqs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Match;
import dev.sluice.rules.RuleSet;
import dev.sluice.testing.InlineRules;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BucketMatchTest {
  private final RuleSet rules =
      InlineRules.load(
          """
          domain: edge
          descriptors:
            - key: name
              value: my_bucket
              descriptors:
                - key: env
                  value: prod
                  rate_limit: {unit: second, requests_per_unit: 100}
                - key: env
                  rate_limit: {unit: second, requests_per_unit: 10}
            - key: user
              descriptors:
                - key: name
                  value: api
                  rate_limit: {unit: minute, requests_per_unit: 60}
            - key: tenant
              rate_limit: {unit: second, requests_per_unit: 0}
            - key: free
              rate_limit: {unlimited: true}
          """);

  private Optional<String> path(Map<String, String> bucket) {
    return BucketMatch.find(rules, "edge", bucket).map(Match::rule).map(r -> r.path());
  }

  @Test
  void find_staticAndHeaderValue_walksNameThenEnv() {
    // Envoy's bucket_id_builder example 2: name is a string_value, env comes from a header.
    assertThat(path(Map.of("name", "my_bucket", "env", "prod")))
        .contains("name_my_bucket.env_prod");
    assertThat(path(Map.of("env", "staging", "name", "my_bucket"))).contains("name_my_bucket.env");
  }

  @Test
  void find_treeWrittenInAnotherKeyOrder_stillFound() {
    // Sorted order (name, user) fails; the next order (user, name) matches.
    Optional<Match> match = BucketMatch.find(rules, "edge", Map.of("name", "api", "user", "u1"));

    assertThat(match.map(m -> m.rule().path())).contains("user.name_api");
    assertThat(match.get().counterEntries())
        .extracting(Object::toString)
        .containsExactly("user=u1", "name=api");
  }

  @Test
  void find_entryTheTreeHasNoLevelFor_unmatched() {
    assertThat(path(Map.of("name", "my_bucket", "hello", "world"))).isEmpty();
  }

  @Test
  void find_unknownDomain_unmatched() {
    assertThat(BucketMatch.find(rules, "nope", Map.of("tenant", "t"))).isEmpty();
  }

  @Test
  void plan_zeroRequests_denyAll_unlimitedAndUnmatched_allowAll() {
    assertThat(plan(Map.of("tenant", "t1"))).isEqualTo(Assignment.DENY_ALL);
    assertThat(plan(Map.of("free", "x"))).isEqualTo(Assignment.ALLOW_ALL);
    assertThat(plan(Map.of("nothing", "x"))).isEqualTo(Assignment.ALLOW_ALL);
  }

  @Test
  void plan_perValueCounter_dividedApart() {
    BucketPlan.Divided u1 = divided(Map.of("user", "u1", "name", "api"));
    BucketPlan.Divided u2 = divided(Map.of("user", "u2", "name", "api"));

    assertThat(u1.group()).isNotEqualTo(u2.group());
    assertThat(u1.limitPerSecond()).isEqualTo(1.0);
  }

  private Assignment plan(Map<String, String> bucket) {
    return ((BucketPlan.Blanket) BucketPlan.of(BucketMatch.find(rules, "edge", bucket), 0))
        .assignment();
  }

  private BucketPlan.Divided divided(Map<String, String> bucket) {
    return (BucketPlan.Divided) BucketPlan.of(BucketMatch.find(rules, "edge", bucket), 0);
  }
}
