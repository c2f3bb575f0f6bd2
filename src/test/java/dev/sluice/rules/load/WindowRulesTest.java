package dev.sluice.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.NamedLimit;
import dev.sluice.rules.Rule;
import dev.sluice.rules.Unit;
import dev.sluice.rules.Window;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code unit_multiplier} and {@code time_zone}: read into the limit's window, and {@code
 * FILE:LINE} errors for every combination that has no meaning. Invalid files live in {@code
 * rules/invalid_window/}.
 */
class WindowRulesTest {
  private static final String ZONE_NAMES =
      "expected an IANA time zone name such as Europe/Berlin or America/New_York";

  private final RuleLoader loader = new RuleLoader(Algorithm.FIXED_WINDOW);

  @TempDir Path dir;

  private List<Rule> load(String yaml) throws IOException {
    Path file = Files.writeString(dir.resolve("rules.yaml"), yaml);
    LoadResult result = loader.load(file);
    assertThat(result).isInstanceOf(LoadResult.Loaded.class);
    return ((LoadResult.Loaded) result).rules().rules();
  }

  private static Rule rule(List<Rule> rules, String path) {
    return rules.stream().filter(r -> r.path().equals(path)).findFirst().orElseThrow();
  }

  private static Window windowOf(List<Rule> rules, String path) {
    return rule(rules, path).limit().map(Limit::window).orElseThrow();
  }

  @Test
  void load_multiplierAndTimeZone_makeTheLimitsWindow() throws IOException {
    List<Rule> rules =
        load(
            """
            domain: api
            descriptors:
              - key: quarter
                rate_limit: {unit: minute, unit_multiplier: 15, requests_per_unit: 100}
              - key: six
                rate_limit: {unit: hour, unit_multiplier: 6, requests_per_unit: 6, algorithm: token_bucket}
              - key: plan
                rate_limit: {unit: month, time_zone: Europe/Berlin, requests_per_unit: 3}
              - key: one
                rate_limit: {unit: minute, unit_multiplier: 1, requests_per_unit: 5}
              - key: plain
                rate_limit: {unit: month, requests_per_unit: 5}
              - key: rolling
                rate_limit: {unit: hour, unit_multiplier: 24, algorithm: sliding_window, requests_per_unit: 5}
            """);

    assertThat(windowOf(rules, "quarter")).isEqualTo(new Window.Fixed(Unit.MINUTE, 15));
    assertThat(windowOf(rules, "six")).isEqualTo(new Window.Fixed(Unit.HOUR, 6));
    assertThat(windowOf(rules, "plan"))
        .isEqualTo(new Window.Calendar(Unit.MONTH, ZoneId.of("Europe/Berlin")));
    assertThat(windowOf(rules, "one")).as("the same as none").isEqualTo(Window.of(Unit.MINUTE));
    assertThat(windowOf(rules, "plain")).isEqualTo(Window.of(Unit.MONTH));
    assertThat(windowOf(rules, "rolling")).isEqualTo(new Window.Fixed(Unit.HOUR, 24));
    assertThat(rule(rules, "quarter").limit().orElseThrow().unit())
        .as("what the RLS answer names")
        .isEqualTo(Unit.MINUTE);
    assertThat(rule(rules, "plan").limit().orElseThrow().inWords())
        .isEqualTo("3 per calendar month in Europe/Berlin");
    assertThat(rule(rules, "quarter").limit().orElseThrow().inWords())
        .isEqualTo("100 per 15 minutes");
  }

  @Test
  void load_rateLimitsOfOneUnitAndDifferentWindows_areSeveralLimits() throws IOException {
    List<Rule> rules =
        load(
            """
            domain: api
            descriptors:
              - key: user
                rate_limits:
                  - {unit: minute, requests_per_unit: 10}
                  - {unit: minute, unit_multiplier: 15, requests_per_unit: 100}
                  - {unit: day, requests_per_unit: 1000}
                  - {unit: day, time_zone: Asia/Kolkata, requests_per_unit: 1000}
            """);

    assertThat(rule(rules, "user").limits())
        .extracting(NamedLimit::limit)
        .extracting(Limit::window)
        .containsExactly(
            Window.of(Unit.MINUTE),
            new Window.Fixed(Unit.MINUTE, 15),
            Window.of(Unit.DAY),
            new Window.Calendar(Unit.DAY, ZoneId.of("Asia/Kolkata")));
  }

  @Test
  void load_unknownTimeZone_isAFileLineErrorNamingTheZone() throws URISyntaxException {
    assertProblems("unknown_time_zone.yaml", "6: unknown time_zone 'Europe/Berlln'; " + ZONE_NAMES);
    assertProblems(
        "time_zone_wrong_case.yaml",
        "6: unknown time_zone 'europe/berlin' (did you mean 'Europe/Berlin'?)");
    assertProblems("offset_time_zone.yaml", "6: unknown time_zone '+05:30'; " + ZONE_NAMES);
    assertProblems("time_zone_not_text.yaml", "6: time_zone must be text, found a list");
  }

  @Test
  void load_timeZoneOnSecondMinuteOrHour_isAFileLineError() throws URISyntaxException {
    assertProblems(
        "time_zone_on_short_units.yaml",
        "4: time_zone applies to day, week, month or year, not second",
        "6: time_zone applies to day, week, month or year, not minute",
        "11: time_zone applies to day, week, month or year, not hour");
  }

  @Test
  void load_multiplierOnACalendarWindow_isAFileLineError() throws URISyntaxException {
    assertProblems(
        "multiplier_with_time_zone.yaml",
        "7: unit_multiplier cannot be combined with time_zone: a calendar window is one day,"
            + " week, month or year");
  }

  @Test
  void load_timeZoneOnSlidingWindow_isAFileLineError() throws URISyntaxException {
    assertProblems(
        "time_zone_on_sliding_window.yaml",
        "7: time_zone does not apply to sliding_window, which rolls over epoch-aligned windows;"
            + " use fixed_window or token_bucket");
    assertProblems(
        "sliding_window_over_a_day.yaml",
        "9: sliding_window counts over at most a day, not 25 hours");
  }

  @Test
  void load_badMultipliers_areFileLineErrors() throws URISyntaxException {
    assertProblems(
        "bad_multipliers.yaml",
        "4: unit_multiplier must be >= 1: 0",
        "6: unit_multiplier must be a whole number: 1.5",
        "8: unit_multiplier must be a number, found the quoted text '15'",
        "10: unit_multiplier must be <= 100 per year (windows are at most 100 years): 101",
        "12: unit_multiplier must be >= 1: -6");
  }

  @Test
  void load_badWindowFieldsWithoutAUnit_areStillReported() throws URISyntaxException {
    assertProblems(
        "multiplier_without_unit.yaml",
        "5: rate_limit has no unit; expected second, minute, hour, day, week, month or year",
        "5: unit_multiplier must be a whole number: 0.5",
        "6: unknown time_zone 'Mars/Olympus'; " + ZONE_NAMES);
  }

  @Test
  void load_windowFieldsWhenUnlimited_areFileLineErrors() throws URISyntaxException {
    assertProblems(
        "window_fields_when_unlimited.yaml",
        "6: should not specify unit_multiplier when unlimited",
        "7: should not specify time_zone when unlimited");
  }

  @Test
  void load_rateLimitsWithOneWindowTwice_isAFileLineError() throws URISyntaxException {
    assertProblems(
        "rate_limits_same_window.yaml",
        "6: rate_limits has two limits per hour counted by fixed_window (first at line 5); they"
            + " would count the same hits twice",
        "11: rate_limits has two limits per calendar month in Europe/Berlin counted by"
            + " fixed_window (first at line 10); they would count the same hits twice");
  }

  private void assertProblems(String file, String... expected) throws URISyntaxException {
    Path invalid = Path.of(WindowRulesTest.class.getResource("/rules/invalid_window").toURI());
    LoadResult result = loader.load(invalid.resolve(file));
    assertThat(result).isInstanceOf(LoadResult.Failed.class);
    List<String> shown =
        ((LoadResult.Failed) result)
            .problems().stream().map(p -> p.toString().replace(invalid + "/", "")).toList();
    assertThat(shown)
        .containsExactlyElementsOf(List.of(expected).stream().map(e -> file + ":" + e).toList());
  }
}
