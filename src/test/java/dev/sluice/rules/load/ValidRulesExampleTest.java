package dev.sluice.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Match;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.Unit;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Loads the realistic multi-file example in {@code rules/valid/} and matches requests against it.
 */
class ValidRulesExampleTest {
  private static Path dir;
  private static LoadResult.Loaded loaded;
  private static RuleSet rules;

  @BeforeAll
  static void load() throws URISyntaxException {
    dir = Path.of(ValidRulesExampleTest.class.getResource("/rules/valid").toURI());
    LoadResult result = new RuleLoader(Algorithm.FIXED_WINDOW).load(dir);
    assertThat(result).isInstanceOf(LoadResult.Loaded.class);
    loaded = (LoadResult.Loaded) result;
    rules = loaded.rules();
  }

  @Test
  void load_exampleDirectory_readsEveryFileInSortedOrder() {
    assertThat(loaded.files())
        .containsExactly(
            dir.resolve("edge/api.yaml"),
            dir.resolve("internal.yml"),
            dir.resolve("messaging.yaml"));
    assertThat(rules.domains()).containsExactly("edge", "internal", "messaging");
    assertThat(loaded.version()).matches("[0-9a-f]{12}");
  }

  @Test
  void match_nestedExactValue_takesTheNestedLimit() {
    Rule rule = match("messaging", "message_type", "marketing", "to_number", "5551234").rule();

    assertThat(rule.path()).isEqualTo("message_type_marketing.to_number");
    assertThat(rule.limit()).contains(Limit.of(5, Unit.DAY, Algorithm.FIXED_WINDOW));
    assertThat(rule.origin()).isEqualTo("messaging.yaml:8");
  }

  @Test
  void match_keyOnly_takesTheDefaultLimit() {
    Rule rule = match("messaging", "to_number", "5551234").rule();

    assertThat(rule.limit()).contains(Limit.of(100, Unit.DAY, Algorithm.FIXED_WINDOW));
  }

  @Test
  void match_leafWithoutRateLimit_countsNothing() {
    Rule rule = match("messaging", "to_number_class", "test").rule();

    assertThat(rule.counted()).isFalse();
    assertThat(rule.unlimited()).isFalse();
  }

  @Test
  void match_tokenBucketWithBurst_keepsNameAndBurst() {
    Rule rule = match("edge", "remote_address", "203.0.113.7").rule();

    assertThat(rule.limit()).contains(new Limit(50, Unit.SECOND, Algorithm.TOKEN_BUCKET, 200));
    assertThat(rule.name()).isEqualTo("per_ip");
    assertThat(rule.origin()).isEqualTo("edge/api.yaml:5");
  }

  @Test
  void match_wildcardUnlimited_winsOverKeyOnly() {
    Rule rule = match("edge", "remote_address", "10.0.0.7").rule();

    assertThat(rule.unlimited()).isTrue();
    assertThat(rule.counted()).isFalse();
  }

  @Test
  void match_sharedWildcard_countsUnderThePattern() {
    Match post = match("edge", "path", "/api/users", "method", "POST");
    Match get = match("edge", "path", "/api/orders", "method", "GET");

    assertThat(post.rule().limit()).contains(Limit.of(600, Unit.MINUTE, Algorithm.FIXED_WINDOW));
    assertThat(post.counterEntries())
        .containsExactly(new Entry("path", "/api/*"), new Entry("method", "POST"));
    assertThat(get.rule().limit()).contains(Limit.of(6000, Unit.MINUTE, Algorithm.FIXED_WINDOW));
  }

  @Test
  void match_ruleWithReplaces_namesTheReplacedRule() {
    Rule rule = match("edge", "path", "/login", "remote_address", "203.0.113.7").rule();

    assertThat(rule.name()).isEqualTo("login_per_ip");
    assertThat(rule.replaces()).isEqualTo(Set.of("per_ip"));
  }

  @Test
  void match_shadowModeRule_isFlagged() {
    assertThat(match("edge", "user_tier", "free").rule().shadowMode()).isTrue();
    assertThat(match("edge", "remote_address", "203.0.113.7").rule().shadowMode()).isFalse();
  }

  @Test
  void match_ymlFileWithMetadata_readsFlagsAndCaseInsensitiveNames() {
    Rule rule = match("internal", "service", "billing", "tenant", "acme").rule();

    assertThat(rule.limit()).contains(Limit.of(1_000_000, Unit.MONTH, Algorithm.FIXED_WINDOW));
    assertThat(rule.flags().quotaMode()).isTrue();
  }

  @Test
  void match_unknownDomainOrUnmatchedValue_isEmpty() {
    assertThat(rules.match("nope", List.of(new Entry("to_number", "1")))).isEmpty();
    assertThat(rules.match("edge", List.of(new Entry("path", "/other")))).isEmpty();
  }

  /** Matches {@code key1, value1, key2, value2, ...}, which must match. */
  private static Match match(String domain, String... keysAndValues) {
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      entries.add(new Entry(keysAndValues[i], keysAndValues[i + 1]));
    }
    Optional<Match> match = rules.match(domain, entries);
    assertThat(match).as("match for %s %s", domain, entries).isPresent();
    return match.get();
  }
}
