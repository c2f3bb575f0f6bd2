package dev.sluice.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The window arithmetic on plain values: epoch alignment, DST changes, months' real lengths. */
class WindowTest {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private static long millis(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  private static long local(String dateTime, ZoneId zone) {
    return LocalDateTime.parse(dateTime).atZone(zone).toInstant().toEpochMilli();
  }

  private static long hours(long n) {
    return Duration.ofHours(n).toMillis();
  }

  @Test
  void fixed_fifteenMinutes_windowsAreEpochAligned() {
    Window.Fixed window = new Window.Fixed(Unit.MINUTE, 15);
    long now = millis("2024-05-01T10:37:12Z");
    long index = window.index(now);
    assertThat(window.startMillis(index)).isEqualTo(millis("2024-05-01T10:30:00Z"));
    assertThat(window.endMillis(index)).isEqualTo(millis("2024-05-01T10:45:00Z"));
    assertThat(window.untilEndMillis(now)).isEqualTo(Duration.ofSeconds(7 * 60 + 48).toMillis());
    assertThat(window.lengthMillis(now)).isEqualTo(900_000);
    assertThat(index).isEqualTo(now / 900_000);
  }

  @Test
  void fixed_sixHours_startAtMidnightAndEverySixHoursUtc() {
    Window.Fixed window = new Window.Fixed(Unit.HOUR, 6);
    for (String start : List.of("00", "06", "12", "18")) {
      long boundary = millis("2024-05-01T" + start + ":00:00Z");
      assertThat(window.index(boundary)).isEqualTo(window.index(boundary - 1) + 1);
      assertThat(window.startMillis(window.index(boundary))).isEqualTo(boundary);
      assertThat(window.untilEndMillis(boundary - 1)).isEqualTo(1);
    }
  }

  @Test
  void fixed_oneUnit_keepsTheKeyEveryCounterHadBefore() {
    for (Unit unit : Unit.values()) {
      assertThat(Window.of(unit).keyPart()).isEqualTo(Long.toString(unit.seconds()));
      assertThat(Window.of(unit)).isEqualTo(new Window.Fixed(unit, 1));
    }
    assertThat(new Window.Fixed(Unit.MINUTE, 15).keyPart()).isEqualTo("900");
  }

  @Test
  void fixed_words_nameTheMultipleAndTheFixedMonth() {
    assertThat(Window.of(Unit.MINUTE).words()).isEqualTo("minute");
    assertThat(new Window.Fixed(Unit.MINUTE, 15).words()).isEqualTo("15 minutes");
    assertThat(new Window.Fixed(Unit.HOUR, 6).words()).isEqualTo("6 hours");
    assertThat(Window.of(Unit.MONTH).words()).isEqualTo("month (30 days)");
    assertThat(new Window.Fixed(Unit.YEAR, 2).words()).isEqualTo("2 years (730 days)");
  }

  @Test
  void fixed_multiplierOutOfRange_isRejected() {
    assertThatThrownBy(() -> new Window.Fixed(Unit.MINUTE, 0))
        .hasMessageContaining("unit_multiplier must be between 1 and 52560000 for minute");
    assertThat(new Window.Fixed(Unit.YEAR, 100).lengthSeconds()).isEqualTo(Window.MAX_SECONDS);
    assertThatThrownBy(() -> new Window.Fixed(Unit.YEAR, 101))
        .hasMessageContaining("between 1 and 100 for year");
    assertThatThrownBy(() -> new Window.Fixed(Unit.SECOND, Window.MAX_SECONDS + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void calendar_dayInBerlin_is23HoursInSpringAnd25InAutumn() {
    Window.Calendar day = new Window.Calendar(Unit.DAY, BERLIN);
    long spring = local("2024-03-31T12:00", BERLIN);
    assertThat(day.lengthMillis(spring)).isEqualTo(hours(23));
    assertThat(day.startMillis(day.index(spring))).isEqualTo(millis("2024-03-30T23:00:00Z"));
    assertThat(day.endMillis(day.index(spring))).isEqualTo(millis("2024-03-31T22:00:00Z"));
    long autumn = local("2024-10-27T12:00", BERLIN);
    assertThat(day.lengthMillis(autumn)).isEqualTo(hours(25));
    assertThat(day.lengthMillis(local("2024-10-28T12:00", BERLIN))).isEqualTo(hours(24));
  }

  @Test
  void calendar_monthInBerlin_hasItsRealLength() {
    Window.Calendar month = new Window.Calendar(Unit.MONTH, BERLIN);
    assertThat(month.lengthMillis(local("2024-02-10T00:00", BERLIN))).isEqualTo(hours(29 * 24));
    assertThat(month.lengthMillis(local("2023-02-10T00:00", BERLIN))).isEqualTo(hours(28 * 24));
    // March loses the hour of the change to summer time, October gains one.
    assertThat(month.lengthMillis(local("2024-03-10T00:00", BERLIN))).isEqualTo(hours(31 * 24 - 1));
    assertThat(month.lengthMillis(local("2024-10-10T00:00", BERLIN))).isEqualTo(hours(31 * 24 + 1));
    long lastInstant = local("2024-03-01T00:00", BERLIN) - 1;
    assertThat(month.index(lastInstant + 1)).isEqualTo(month.index(lastInstant) + 1);
    assertThat(month.untilEndMillis(lastInstant)).isEqualTo(1);
  }

  @Test
  void calendar_weekStartsOnMondayAtLocalMidnight() {
    Window.Calendar week = new Window.Calendar(Unit.WEEK, BERLIN);
    long thursday = local("2024-05-02T15:00", BERLIN);
    assertThat(week.startMillis(week.index(thursday))).isEqualTo(local("2024-04-29T00:00", BERLIN));
    assertThat(week.endMillis(week.index(thursday))).isEqualTo(local("2024-05-06T00:00", BERLIN));
  }

  @Test
  void calendar_indexesCountFromTheLocalEpoch() {
    ZoneId utc = ZoneId.of("UTC");
    assertThat(new Window.Calendar(Unit.DAY, utc).index(0)).isZero();
    assertThat(new Window.Calendar(Unit.MONTH, utc).index(0)).isZero();
    assertThat(new Window.Calendar(Unit.YEAR, utc).index(0)).isZero();
    Window.Calendar week = new Window.Calendar(Unit.WEEK, utc);
    assertThat(week.index(0)).isZero();
    assertThat(week.startMillis(0)).isEqualTo(millis("1969-12-29T00:00:00Z"));
    Window.Calendar month = new Window.Calendar(Unit.MONTH, BERLIN);
    assertThat(month.index(local("2024-05-15T00:00", BERLIN))).isEqualTo(54 * 12 + 4);
    assertThat(month.startMillis(-1)).isEqualTo(local("1969-12-01T00:00", BERLIN));
  }

  @Test
  void calendar_utcPlus14_daysMonthsAndYearsStartAtLocalMidnight() {
    ZoneId kiritimati = ZoneId.of("Pacific/Kiritimati");
    long now = millis("2024-12-31T09:59:59Z"); // 23:59:59 on Dec 31 there
    Window.Calendar year = new Window.Calendar(Unit.YEAR, kiritimati);
    assertThat(year.untilEndMillis(now)).isEqualTo(1000);
    assertThat(year.endMillis(year.index(now))).isEqualTo(millis("2024-12-31T10:00:00Z"));
    Window.Calendar month = new Window.Calendar(Unit.MONTH, kiritimati);
    assertThat(month.startMillis(month.index(now))).isEqualTo(millis("2024-11-30T10:00:00Z"));
  }

  @Test
  void calendar_halfHourZones_startAtTheirMidnight() {
    ZoneId kolkata = ZoneId.of("Asia/Kolkata");
    Window.Calendar day = new Window.Calendar(Unit.DAY, kolkata);
    long now = millis("2024-05-01T18:29:59Z");
    assertThat(day.endMillis(day.index(now))).isEqualTo(millis("2024-05-01T18:30:00Z"));
    // Adelaide: +10:30 in summer, +9:30 in winter; the day of the change is 25 hours.
    ZoneId adelaide = ZoneId.of("Australia/Adelaide");
    Window.Calendar adelaideDay = new Window.Calendar(Unit.DAY, adelaide);
    assertThat(adelaideDay.lengthMillis(local("2024-04-07T12:00", adelaide))).isEqualTo(hours(25));
    assertThat(adelaideDay.startMillis(adelaideDay.index(local("2024-04-07T12:00", adelaide))))
        .isEqualTo(millis("2024-04-06T13:30:00Z"));
  }

  @Test
  void calendar_skippedDay_isAnEmptyWindowNoInstantFallsIn() {
    // Samoa skipped 30 December 2011, moving from UTC-10 to UTC+14.
    Window.Calendar day = new Window.Calendar(Unit.DAY, ZoneId.of("Pacific/Apia"));
    long lastOf29th = millis("2011-12-30T09:59:59.999Z");
    long index = day.index(lastOf29th);
    assertThat(day.index(lastOf29th + 1)).isEqualTo(index + 2);
    assertThat(day.untilEndMillis(lastOf29th)).isEqualTo(1);
  }

  /**
   * Every hour over two years, in zones with DST, half-hour DST (Lord Howe), clocks that go back at
   * midnight (Santiago, Havana) and a skipped day (Apia): each instant is in its window, and
   * windows only move forward.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "Europe/Berlin",
        "America/Santiago",
        "America/Havana",
        "Australia/Lord_Howe",
        "Pacific/Apia",
        "Pacific/Kiritimati",
        "Asia/Tehran",
        "America/St_Johns"
      })
  void calendar_everyHourOverTwoYears_liesInItsWindowAndWindowsMoveForward(String zoneId) {
    ZoneId zone = ZoneId.of(zoneId);
    for (Unit unit : List.of(Unit.DAY, Unit.WEEK, Unit.MONTH, Unit.YEAR)) {
      Window.Calendar window = new Window.Calendar(unit, zone);
      Window.Calendar fresh = new Window.Calendar(unit, zone);
      long previous = Long.MIN_VALUE;
      long from = millis("2010-06-01T00:00:00Z");
      for (long t = from; t < from + hours(2 * 366 * 24); t += hours(3) + 7_919) {
        long index = window.index(t);
        assertThat(window.startMillis(index))
            .as("%s %s at %d", zoneId, unit, t)
            .isLessThanOrEqualTo(t);
        assertThat(window.endMillis(index)).as("%s %s at %d", zoneId, unit, t).isGreaterThan(t);
        assertThat(index).isGreaterThanOrEqualTo(previous);
        previous = index;
      }
      // The remembered window never changes an answer: ask a fresh one out of order.
      long later = from + hours(500 * 24);
      assertThat(fresh.index(later)).isEqualTo(window.index(later));
      assertThat(fresh.index(from)).isEqualTo(window.index(from));
      assertThat(fresh.startMillis(fresh.index(later)))
          .isEqualTo(window.startMillis(window.index(later)));
    }
  }

  @Test
  void calendar_startsAtTheFirstInstantOfItsFirstLocalDay() {
    ZoneId zone = ZoneId.of("America/Santiago");
    Window.Calendar day = new Window.Calendar(Unit.DAY, zone);
    LocalDate date = LocalDate.of(2024, 9, 8); // clocks jump from 00:00 to 01:00
    long start = day.startMillis(date.toEpochDay());
    assertThat(start)
        .isEqualTo(ZonedDateTime.of(date.atStartOfDay(), zone).toInstant().toEpochMilli());
    assertThat(Instant.ofEpochMilli(start).atZone(zone).toLocalTime().getHour()).isEqualTo(1);
  }

  @Test
  void calendar_unitShorterThanADay_isRejected() {
    assertThatThrownBy(() -> new Window.Calendar(Unit.HOUR, BERLIN))
        .hasMessage("time_zone applies to day, week, month or year, not hour");
  }

  @Test
  void calendar_keyAndWordsNameUnitAndZone_equalByValue() {
    Window.Calendar month = new Window.Calendar(Unit.MONTH, BERLIN);
    assertThat(month.keyPart()).isEqualTo("month@Europe/Berlin");
    assertThat(month.words()).isEqualTo("calendar month in Europe/Berlin");
    assertThat(month).isEqualTo(new Window.Calendar(Unit.MONTH, ZoneId.of("Europe/Berlin")));
    assertThat(month.hashCode())
        .isEqualTo(new Window.Calendar(Unit.MONTH, ZoneId.of("Europe/Berlin")).hashCode());
    assertThat(month).isNotEqualTo(new Window.Calendar(Unit.MONTH, ZoneId.of("Europe/Paris")));
    assertThat(month).isNotEqualTo(new Window.Calendar(Unit.WEEK, BERLIN));
  }

  @Test
  void limit_slidingWindow_takesAnyFixedWindowAsOverridesDidButNoCalendarOne() {
    // A client's override per week, counted by --default-algorithm sliding_window, as before.
    assertThat(Limit.of(5, Unit.WEEK, Algorithm.SLIDING_WINDOW).window())
        .isEqualTo(Window.of(Unit.WEEK));
    assertThatThrownBy(
            () ->
                new Limit(
                    5,
                    new Window.Calendar(Unit.DAY, BERLIN),
                    Algorithm.SLIDING_WINDOW,
                    5,
                    Consistency.EXACT))
        .hasMessage("sliding_window cannot count per calendar day in Europe/Berlin");
  }
}
