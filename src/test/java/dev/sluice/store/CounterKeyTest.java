package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.rules.Window;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The counter identity: readable, escaped, and distinct wherever the counters must be. */
class CounterKeyTest {
  private static final Limit PER_MINUTE = Limit.of(5, Unit.MINUTE, Algorithm.FIXED_WINDOW);

  @Test
  void of_plainParts_namesAlgorithmWindowDomainAndEntries() {
    String key =
        CounterKey.of(
            "edge",
            List.of(new Entry("remote_address", "10.0.0.1"), new Entry("path", "/api")),
            PER_MINUTE);

    assertThat(key).isEqualTo("fw|60|edge|remote_address=10.0.0.1|path=/api");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "SECOND, 1",
    "MINUTE, 60",
    "HOUR, 3600",
    "DAY, 86400",
    "WEEK, 604800",
    "MONTH, 2592000",
    "YEAR, 31536000"
  })
  void of_eachUnit_putsTheWindowLengthInSecondsIntoTheKey(Unit unit, long seconds) {
    String key = CounterKey.of("d", List.of(new Entry("k", "v")), limit(unit));

    assertThat(key).isEqualTo("fw|" + seconds + "|d|k=v");
  }

  @Test
  void of_tokenBucket_isMarkedTb() {
    Limit bucket = new Limit(2, Unit.SECOND, Algorithm.TOKEN_BUCKET, 5);

    assertThat(CounterKey.of("d", List.of(new Entry("k", "v")), bucket)).isEqualTo("tb|1|d|k=v");
  }

  @Test
  void of_separatorsAndPercentInAnyPart_areEscaped() {
    String key =
        CounterKey.of(
            "a|b=c%", List.of(new Entry("k|=%", "v|w=x%y"), new Entry("", "")), PER_MINUTE);

    assertThat(key).isEqualTo("fw|60|a%7Cb%3Dc%25|k%7C%3D%25=v%7Cw%3Dx%25y|=");
  }

  @Test
  void of_entriesThatTheReferenceWouldJoinAlike_getDistinctKeys() {
    List<List<Entry>> lookAlikes =
        List.of(
            List.of(new Entry("a_b", "c")),
            List.of(new Entry("a", "b_c")),
            List.of(new Entry("a", "b"), new Entry("c", "d")),
            List.of(new Entry("a", "b|c=d")),
            List.of(new Entry("a=b", "c")),
            List.of(new Entry("a", "b=c")),
            List.of(new Entry("a", "%7C")),
            List.of(new Entry("a", "|")),
            List.of(new Entry("a", "")),
            List.of(new Entry("a", ""), new Entry("", "")));

    List<String> keys = lookAlikes.stream().map(e -> CounterKey.of("d", e, PER_MINUTE)).toList();

    assertThat(keys).doesNotHaveDuplicates();
  }

  @Test
  void of_domainBoundary_isUnambiguous() {
    String domainWithBar = CounterKey.of("a|k=v", List.of(new Entry("x", "y")), PER_MINUTE);
    String entryAfterDomain =
        CounterKey.of("a", List.of(new Entry("k", "v"), new Entry("x", "y")), PER_MINUTE);

    assertThat(domainWithBar).isNotEqualTo(entryAfterDomain);
  }

  @Test
  void of_sameEntriesOtherWindowOrAlgorithm_areDifferentCounters() {
    List<Entry> entries = List.of(new Entry("user", "alice"));

    List<String> keys =
        List.of(
            CounterKey.of("api", entries, Limit.of(5, Unit.MINUTE, Algorithm.FIXED_WINDOW)),
            CounterKey.of("api", entries, Limit.of(5, Unit.HOUR, Algorithm.FIXED_WINDOW)),
            CounterKey.of("api", entries, Limit.of(5, Unit.MINUTE, Algorithm.TOKEN_BUCKET)),
            CounterKey.of("other", entries, Limit.of(5, Unit.MINUTE, Algorithm.FIXED_WINDOW)));

    assertThat(keys).doesNotHaveDuplicates();
  }

  @Test
  void of_sameEntriesWindowAndAlgorithmButOtherRate_isTheSameCounter() {
    List<Entry> entries = List.of(new Entry("user", "alice"));

    assertThat(CounterKey.of("api", entries, Limit.of(5, Unit.MINUTE, Algorithm.FIXED_WINDOW)))
        .isEqualTo(
            CounterKey.of("api", entries, Limit.of(50, Unit.MINUTE, Algorithm.FIXED_WINDOW)));
  }

  private static Limit limit(Unit unit) {
    return Limit.of(1, unit, Algorithm.FIXED_WINDOW);
  }

  @Test
  void of_windowsOtherThanOneUnit_putTheirLengthOrCalendarIntoTheKey() {
    List<Entry> one = List.of(new Entry("user", "alice"));
    List<Entry> two = List.of(new Entry("user", "alice"), new Entry("path", "/a"));
    Limit quarter =
        new Limit(
            100, new Window.Fixed(Unit.MINUTE, 15), Algorithm.FIXED_WINDOW, 100, Consistency.EXACT);
    Limit berlin =
        new Limit(
            3,
            new Window.Calendar(Unit.MONTH, ZoneId.of("Europe/Berlin")),
            Algorithm.TOKEN_BUCKET,
            3,
            Consistency.EXACT);

    assertThat(CounterKey.of("api", one, quarter)).isEqualTo("fw|900|api|user=alice");
    assertThat(CounterKey.of("api", two, quarter)).isEqualTo("fw|900|api|user=alice|path=/a");
    assertThat(CounterKey.of("api", one, berlin))
        .isEqualTo("tb|month@Europe/Berlin|api|user=alice");
    assertThat(CounterKey.of("api", two, berlin))
        .isEqualTo("tb|month@Europe/Berlin|api|user=alice|path=/a");
    assertThat(CounterKey.ofSeveral(CounterKey.group("api", one), berlin))
        .isEqualTo("ml|api|user=alice|tb|month@Europe/Berlin");
  }

  @Test
  void of_changedMultiplierOrZone_startsAnotherCounter() {
    List<Entry> entries = List.of(new Entry("user", "alice"));
    java.util.Set<String> keys = new java.util.HashSet<>();
    for (Window window :
        List.of(
            Window.of(Unit.MINUTE),
            new Window.Fixed(Unit.MINUTE, 15),
            new Window.Fixed(Unit.MINUTE, 16),
            Window.of(Unit.MONTH),
            new Window.Calendar(Unit.MONTH, ZoneId.of("UTC")),
            new Window.Calendar(Unit.MONTH, ZoneId.of("Europe/Berlin")),
            new Window.Calendar(Unit.WEEK, ZoneId.of("Europe/Berlin")))) {
      Limit limit = new Limit(5, window, Algorithm.FIXED_WINDOW, 5, Consistency.EXACT);
      assertThat(keys.add(CounterKey.of("api", entries, limit))).as("%s", window).isTrue();
    }
  }
}
