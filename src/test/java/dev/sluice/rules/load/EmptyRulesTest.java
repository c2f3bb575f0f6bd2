package dev.sluice.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RulesConfig;
import dev.sluice.config.RulesConfig.Reading;
import dev.sluice.config.RulesSettings;
import dev.sluice.config.ServeSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.rules.Algorithm;
import dev.sluice.testing.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 5: an emptied rule directory used to load as "0 domains", health stayed 200 and
 * every request became unlimited. Zero rules are now refused unless allowed.
 */
class EmptyRulesTest {
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final RuleLoader refusing = new RuleLoader(Algorithm.FIXED_WINDOW, Set.of());

  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: minute, requests_per_unit: 5}
      """;

  private RuleReloader reloaderOn(boolean allowEmpty) throws IOException {
    Files.writeString(dir.resolve("a.yaml"), RULES);
    Files.writeString(dir.resolve("b.yaml"), RULES.replace("api", "web"));
    RulesConfig rules =
        RulesConfig.from(
            SettingValues.builder()
                .set(RulesSettings.CONFIG, dir)
                .set(ServeSettings.RELOAD_INTERVAL, Duration.ofSeconds(1))
                .set(RulesSettings.ALLOW_EMPTY_RULES, allowEmpty)
                .build());
    RuleLoader loader = new RuleLoader(Algorithm.FIXED_WINDOW, rules.reading());
    LoadResult.Loaded initial = (LoadResult.Loaded) loader.load(dir);
    return new RuleReloader(rules, initial, clock, clock, new Ignored());
  }

  @Test
  void load_emptyDirectory_failsNamingTheFlag() {
    LoadResult result = refusing.load(dir);

    assertThat(result).isInstanceOf(LoadResult.Failed.class);
    assertThat(((LoadResult.Failed) result).problems())
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.file()).isEqualTo(dir);
              assertThat(problem.message())
                  .startsWith("no rules found (0 rule file(s))")
                  .contains("--allow-empty-rules");
            });
  }

  @Test
  void load_domainsWithoutAnyRule_fail() throws IOException {
    Files.writeString(dir.resolve("a.yaml"), "domain: api\n");

    assertThat(refusing.load(dir)).isInstanceOf(LoadResult.Failed.class);
  }

  @Test
  void load_emptyDirectoryWhenAllowed_isZeroDomains() {
    LoadResult result =
        new RuleLoader(Algorithm.FIXED_WINDOW, Set.of(Reading.ALLOW_EMPTY_RULES)).load(dir);

    assertThat(result)
        .isInstanceOfSatisfying(
            LoadResult.Loaded.class, loaded -> assertThat(loaded.rules().domains()).isEmpty());
  }

  @Test
  void reload_everyFileRemoved_isRejectedAndKeepsTheRulesAndTheError() throws IOException {
    RuleReloader reloader = reloaderOn(false);
    Files.delete(dir.resolve("a.yaml"));
    Files.delete(dir.resolve("b.yaml"));

    assertThat(reloader.reloadIfChanged()).isEqualTo(RuleReloader.Outcome.REJECTED);
    assertThat(reloader.rules().domains()).containsExactly("api", "web");
    assertThat(reloader.lastError())
        .hasValueSatisfying(
            error -> assertThat(error.problems().get(0).message()).startsWith("no rules found"));
    assertThat(reloader.reloadIfChanged())
        .as("still empty: still rejected, the error kept")
        .isEqualTo(RuleReloader.Outcome.UNCHANGED);
    assertThat(reloader.lastError()).isPresent();
  }

  @Test
  void reload_midwayThroughRmRf_neverServesZeroRules() throws IOException {
    RuleReloader reloader = reloaderOn(false);
    Files.delete(dir.resolve("a.yaml"));
    reloader.reloadIfChanged();
    assertThat(reloader.rules().domains()).containsExactly("web");

    Files.delete(dir.resolve("b.yaml"));
    assertThat(reloader.reloadIfChanged()).isEqualTo(RuleReloader.Outcome.REJECTED);
    Files.delete(dir);
    assertThat(reloader.reloadIfChanged()).isEqualTo(RuleReloader.Outcome.REJECTED);

    assertThat(reloader.rules().domains()).containsExactly("web");
    assertThat(reloader.lastError()).isPresent();
  }

  @Test
  void reload_everyFileRemovedWhenAllowed_servesZeroRules() throws IOException {
    RuleReloader reloader = reloaderOn(true);
    Files.delete(dir.resolve("a.yaml"));
    Files.delete(dir.resolve("b.yaml"));

    assertThat(reloader.reloadIfChanged()).isEqualTo(RuleReloader.Outcome.RELOADED);
    assertThat(reloader.rules().domains()).isEmpty();
  }

  private static final class Ignored implements RuleReloader.Listener {
    @Override
    public void reloaded(RuleReloader.Snapshot snapshot) {}

    @Override
    public void rejected(RuleReloader.ReloadError error) {}
  }
}
