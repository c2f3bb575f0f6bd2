package dev.sluice.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RulesConfig;
import dev.sluice.config.RulesSettings;
import dev.sluice.config.ServeSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.RuleSet;
import dev.sluice.testing.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuleReloaderTest {
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final RuleLoader loader = new RuleLoader(Algorithm.FIXED_WINDOW);
  private final List<String> events = new ArrayList<>();
  private final RuleReloader.Listener listener =
      new RuleReloader.Listener() {
        @Override
        public void reloaded(RuleReloader.Snapshot snapshot) {
          events.add("reloaded " + snapshot.version());
        }

        @Override
        public void rejected(RuleReloader.ReloadError error) {
          events.add("rejected");
        }
      };

  private static String rules(String domain, int limit) {
    return """
        domain: %s
        descriptors:
          - key: user
            rate_limit: {unit: minute, requests_per_unit: %d}
        """
        .formatted(domain, limit);
  }

  private RuleReloader reloaderOn(Path path) {
    LoadResult.Loaded initial = (LoadResult.Loaded) loader.load(path);
    return new RuleReloader(RulesConfig.of(path), initial, clock, clock, listener);
  }

  private static Optional<Long> limitOf(RuleSet rules, String domain) {
    return rules
        .match(domain, List.of(new Entry("user", "a")))
        .flatMap(match -> match.rule().limit())
        .map(Limit::requestsPerUnit);
  }

  @Test
  void reloadIfChanged_mergedDomainEdited_reloadsMergedInsteadOfRejectingTheDuplicate()
      throws IOException {
    Files.writeString(dir.resolve("a.yaml"), rules("a", 5));
    Files.writeString(
        dir.resolve("b.yaml"),
        "domain: a\ndescriptors:\n  - key: team\n"
            + "    rate_limit: {unit: minute, requests_per_unit: 1}\n");
    RulesConfig merging =
        RulesConfig.from(
            SettingValues.builder()
                .set(RulesSettings.CONFIG, dir)
                .set(ServeSettings.RELOAD_INTERVAL, Duration.ofSeconds(1))
                .set(RulesSettings.MERGE_DOMAINS, true)
                .build());
    LoadResult.Loaded initial =
        (LoadResult.Loaded) new RuleLoader(Algorithm.FIXED_WINDOW, merging.reading()).load(dir);
    RuleReloader reloader = new RuleReloader(merging, initial, clock, clock, listener);

    Files.writeString(dir.resolve("a.yaml"), rules("a", 7));

    assertThat(reloader.reloadIfChanged()).isEqualTo(RuleReloader.Outcome.RELOADED);
    assertThat(limitOf(reloader.rules(), "a")).contains(7L);
  }

  @Test
  void reloadIfChanged_unchangedFiles_doesNothing() throws IOException {
    Files.writeString(dir.resolve("a.yaml"), rules("a", 5));
    RuleReloader reloader = reloaderOn(dir);
    assertThat(reloader.reloadIfChanged()).isEqualTo(RuleReloader.Outcome.UNCHANGED);
    assertThat(events).isEmpty();
  }

  @Test
  void reloadIfChanged_inPlaceEdit_swapsTheRules() throws IOException {
    Path file = dir.resolve("a.yaml");
    Files.writeString(file, rules("a", 5));
    RuleReloader reloader = reloaderOn(dir);
    RuleSet before = reloader.rules();
    Files.writeString(file, rules("a", 7));
    clock.advance(java.time.Duration.ofSeconds(3));
    assertThat(reloader.reloadIfChanged()).isEqualTo(RuleReloader.Outcome.RELOADED);
    assertThat(limitOf(reloader.rules(), "a")).contains(7L);
    assertThat(limitOf(before, "a")).as("the old snapshot is untouched").contains(5L);
    assertThat(reloader.current().loadedAt()).isEqualTo(clock.instant());
  }

  @Test
  void reloadIfChanged_addedAndRemovedFiles_areSeen() throws IOException {
    Files.writeString(dir.resolve("a.yaml"), rules("a", 5));
    RuleReloader reloader = reloaderOn(dir);
    Files.writeString(dir.resolve("b.yml"), rules("b", 2));
    reloader.reloadIfChanged();
    assertThat(reloader.rules().domains()).containsExactly("a", "b");
    Files.delete(dir.resolve("a.yaml"));
    reloader.reloadIfChanged();
    assertThat(reloader.rules().domains()).containsExactly("b");
  }

  @Test
  void reload_invalidRules_keepsPreviousRulesAndReportsTheErrorUntilFixed() throws IOException {
    Path file = dir.resolve("a.yaml");
    Files.writeString(file, rules("a", 5));
    RuleReloader reloader = reloaderOn(dir);
    Files.writeString(file, rules("a", 5).replace("requests_per_unit", "requestsperunit"));
    assertThat(reloader.reloadIfChanged()).isEqualTo(RuleReloader.Outcome.REJECTED);
    assertThat(limitOf(reloader.rules(), "a")).contains(5L);
    assertThat(reloader.lastError()).isPresent();
    assertThat(reloader.lastError().get().problems().get(0).toString())
        .contains("a.yaml:4:")
        .contains("requestsperunit");
    assertThat(reloader.reloadIfChanged())
        .as("the same bad content is not re-parsed or logged again")
        .isEqualTo(RuleReloader.Outcome.UNCHANGED);
    assertThat(events).containsExactly("rejected");

    Files.writeString(file, rules("a", 9));
    assertThat(reloader.reloadIfChanged()).isEqualTo(RuleReloader.Outcome.RELOADED);
    assertThat(reloader.lastError()).isEmpty();
    assertThat(limitOf(reloader.rules(), "a")).contains(9L);
  }

  @Test
  void reloadIfChanged_configMapSymlinkSwap_loadsTheNewTargetOnly() throws IOException {
    // The layout Kubernetes gives a ConfigMap volume: files are symlinks through ..data, which
    // points at a timestamped directory; an update swaps ..data atomically.
    Path v1 = Files.createDirectory(dir.resolve("..2026_11_30_10_00_00.1"));
    Files.writeString(v1.resolve("a.yaml"), rules("a", 5));
    Files.createSymbolicLink(dir.resolve("..data"), v1.getFileName());
    Files.createSymbolicLink(dir.resolve("a.yaml"), Path.of("..data/a.yaml"));
    RuleReloader reloader = reloaderOn(dir);
    assertThat(limitOf(reloader.rules(), "a")).contains(5L);

    Path v2 = Files.createDirectory(dir.resolve("..2026_11_30_10_05_00.2"));
    Files.writeString(v2.resolve("a.yaml"), rules("a", 11));
    Path tmp = dir.resolve("..data_tmp");
    Files.createSymbolicLink(tmp, v2.getFileName());
    Files.move(tmp, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);

    assertThat(reloader.reloadIfChanged()).isEqualTo(RuleReloader.Outcome.RELOADED);
    assertThat(limitOf(reloader.rules(), "a")).contains(11L);
    assertThat(reloader.rules().domains()).containsExactly("a");
  }

  @Test
  void reload_explicit_reloadsEvenWhenUnchanged() throws IOException {
    Files.writeString(dir.resolve("a.yaml"), rules("a", 5));
    RuleReloader reloader = reloaderOn(dir);
    assertThat(reloader.reload()).isEqualTo(RuleReloader.Outcome.RELOADED);
    assertThat(events).hasSize(1);
  }

  @Test
  void start_pollsOnTheSchedulerEveryInterval_andCloseStopsIt() throws IOException {
    Path file = dir.resolve("a.yaml");
    Files.writeString(file, rules("a", 5));
    RuleReloader reloader = reloaderOn(dir);
    assertThat(clock.pendingTasks()).as("nothing scheduled before start").isZero();
    reloader.start();
    Files.writeString(file, rules("a", 7));
    clock.advance(Duration.ofMillis(999));
    assertThat(limitOf(reloader.rules(), "a")).as("no poll before the interval").contains(5L);
    clock.advance(Duration.ofMillis(1));
    assertThat(limitOf(reloader.rules(), "a")).contains(7L);
    assertThat(events).hasSize(1);

    reloader.close();
    Files.writeString(file, rules("a", 9));
    clock.advance(Duration.ofSeconds(5));
    assertThat(limitOf(reloader.rules(), "a")).as("closed: no more polls").contains(7L);
  }

  @Test
  void pollSoon_runsOnTheScheduler_notOnTheCallersThread() throws IOException {
    Path file = dir.resolve("a.yaml");
    Files.writeString(file, rules("a", 5));
    RuleReloader reloader = reloaderOn(dir);
    Files.writeString(file, rules("a", 7));
    reloader.pollSoon();
    assertThat(limitOf(reloader.rules(), "a")).contains(5L);
    clock.runDueTasks();
    assertThat(limitOf(reloader.rules(), "a")).contains(7L);
  }
}
