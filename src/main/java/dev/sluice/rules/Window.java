package dev.sluice.rules;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Objects;

/**
 * What a limit counts over: {@link Fixed} windows of one length aligned to the Unix epoch (the
 * reference's only kind, {@code unit} times {@code unit_multiplier}), or {@link Calendar} days,
 * weeks, months or years that start at local midnight in a time zone ({@code time_zone}).
 *
 * <p>Windows are numbered: {@link #index} is the window holding an instant, {@link #startMillis}
 * where a window begins, and window {@code i} ends where window {@code i + 1} begins, so the
 * windows tile time with no gap and no overlap. Pure arithmetic on epoch milliseconds, the same for
 * every algorithm and both stores; immutable and thread-safe.
 */
public sealed interface Window permits Window.Fixed, Window.Calendar {

  /**
   * The longest window, 100 years of 365 days: in microseconds it stays below 2^53, so the Lua
   * scripts, whose numbers are doubles, compute with it exactly.
   */
  long MAX_SECONDS = 100L * 365 * 86_400;

  /** The unit the RLS answer reports as {@code current_limit.unit}. */
  Unit unit();

  /** The number of the window holding {@code nowMillis} (milliseconds since the epoch). */
  long index(long nowMillis);

  /** Where window {@code index} begins, in milliseconds since the epoch. */
  long startMillis(long index);

  /** Where window {@code index} ends: where the next one begins. */
  default long endMillis(long index) {
    return startMillis(index + 1);
  }

  /** The length of the window holding {@code nowMillis}, in milliseconds. */
  default long lengthMillis(long nowMillis) {
    long index = index(nowMillis);
    return endMillis(index) - startMillis(index);
  }

  /** Milliseconds from {@code nowMillis} to the end of the window holding it; always > 0. */
  default long untilEndMillis(long nowMillis) {
    return endMillis(index(nowMillis)) - nowMillis;
  }

  /**
   * The window's part of a counter key: the length in seconds for a fixed window (as every key had
   * before windows could be anything but one unit, so those counters keep their keys), {@code
   * month@Europe/Berlin} for a calendar one. Never holds {@code |}, {@code =} or {@code %}.
   */
  String keyPart();

  /** The window in words, after "per": {@code minute}, {@code 15 minutes}, {@code calendar ...}. */
  String words();

  /**
   * A short name without spaces, for metric labels: {@code hour}, {@code 15_minutes}, {@code
   * month@Europe/Berlin}.
   */
  String label();

  /** One whole {@code unit}, aligned to the epoch: what every limit was before windows. */
  static Fixed of(Unit unit) {
    return Fixed.ONE[unit.ordinal()];
  }

  /**
   * {@code multiplier} units, aligned to the Unix epoch.
   *
   * @param multiplier 1 or more, at most {@link #MAX_SECONDS} in all
   */
  record Fixed(Unit unit, long multiplier) implements Window {
    private static final Fixed[] ONE = oneOfEach();

    public Fixed {
      Objects.requireNonNull(unit, "unit");
      if (multiplier < 1 || multiplier > maxMultiplier(unit)) {
        throw new IllegalArgumentException(
            "unit_multiplier must be between 1 and "
                + maxMultiplier(unit)
                + " for "
                + unit.name().toLowerCase(Locale.ROOT)
                + " (windows are at most 100 years): "
                + multiplier);
      }
    }

    /** The largest multiplier of {@code unit}: {@link #MAX_SECONDS} in all. */
    public static long maxMultiplier(Unit unit) {
      return MAX_SECONDS / unit.seconds();
    }

    /** Every window's length, in milliseconds. */
    public long lengthMillis() {
      return unit.millis() * multiplier;
    }

    public long lengthSeconds() {
      return unit.seconds() * multiplier;
    }

    @Override
    public long index(long nowMillis) {
      return Math.floorDiv(nowMillis, lengthMillis());
    }

    @Override
    public long startMillis(long index) {
      return index * lengthMillis();
    }

    @Override
    public long lengthMillis(long nowMillis) {
      return lengthMillis();
    }

    @Override
    public long untilEndMillis(long nowMillis) {
      long length = lengthMillis();
      return length - Math.floorMod(nowMillis, length);
    }

    @Override
    public String keyPart() {
      return Long.toString(lengthSeconds());
    }

    @Override
    public String label() {
      String name = unit.name().toLowerCase(Locale.ROOT);
      return multiplier == 1 ? name : multiplier + "_" + name + "s";
    }

    /** {@code minute}, {@code 15 minutes}; a month or year says its fixed length in days. */
    @Override
    public String words() {
      String name = unit.name().toLowerCase(Locale.ROOT);
      String words = multiplier == 1 ? name : multiplier + " " + name + "s";
      if (unit == Unit.MONTH || unit == Unit.YEAR) {
        return words + " (" + lengthSeconds() / 86_400 + " days)";
      }
      return words;
    }

    private static Fixed[] oneOfEach() {
      Fixed[] one = new Fixed[Unit.values().length];
      for (Unit unit : Unit.values()) {
        one[unit.ordinal()] = new Fixed(unit, 1);
      }
      return one;
    }
  }

  /**
   * Calendar days, weeks (from Monday), months or years in {@code zone}, each starting at the first
   * instant of its first local day (local midnight, or the end of a DST gap that skips it). They
   * follow the zone's rules: a day is 23 or 25 hours across a DST change, a month its real length.
   *
   * <p>Numbered from a local epoch in the zone: the day 1970-01-01, the week of Monday 1969-12-29,
   * the month January 1970, the year 1970 are window 0; earlier ones are negative.
   *
   * <p>Remembers the last window asked for, so the hits of one window compute their window with a
   * comparison instead of the zone's rules; a racing reader at worst recomputes it.
   */
  final class Calendar implements Window {
    private final Unit unit;
    private final ZoneId zone;
    private final String keyPart;
    private volatile Span last = new Span(Long.MIN_VALUE, 0, 0);

    /** A calendar window and its bounds, in milliseconds since the epoch. */
    private record Span(long index, long startMillis, long endMillis) {}

    /**
     * @throws IllegalArgumentException when {@code unit} is shorter than a day
     */
    public Calendar(Unit unit, ZoneId zone) {
      this.unit = Objects.requireNonNull(unit, "unit");
      this.zone = Objects.requireNonNull(zone, "zone");
      if (!isCalendar(unit)) {
        throw new IllegalArgumentException(
            "time_zone applies to day, week, month or year, not "
                + unit.name().toLowerCase(Locale.ROOT));
      }
      this.keyPart = unit.name().toLowerCase(Locale.ROOT) + "@" + zone.getId();
    }

    /** Whether {@code unit} has calendar windows: a day or longer. */
    public static boolean isCalendar(Unit unit) {
      return unit.compareTo(Unit.DAY) >= 0;
    }

    @Override
    public Unit unit() {
      return unit;
    }

    public ZoneId zone() {
      return zone;
    }

    @Override
    public long index(long nowMillis) {
      return span(nowMillis).index();
    }

    @Override
    public long lengthMillis(long nowMillis) {
      Span span = span(nowMillis);
      return span.endMillis() - span.startMillis();
    }

    @Override
    public long untilEndMillis(long nowMillis) {
      return span(nowMillis).endMillis() - nowMillis;
    }

    /** The window holding {@code nowMillis}, remembered for the next call. */
    private Span span(long nowMillis) {
      Span span = last;
      if (span.startMillis() <= nowMillis && nowMillis < span.endMillis()) {
        return span;
      }
      long index = localIndex(nowMillis);
      // The local date gives the window but for a zone whose clocks went back across midnight:
      // step until the window's bounds hold the instant.
      while (start(index) > nowMillis) {
        index--;
      }
      while (start(index + 1) <= nowMillis) {
        index++;
      }
      span = new Span(index, start(index), start(index + 1));
      last = span;
      return span;
    }

    private long localIndex(long nowMillis) {
      LocalDate date = LocalDate.ofInstant(Instant.ofEpochMilli(nowMillis), zone);
      return switch (unit) {
        case DAY -> date.toEpochDay();
        case WEEK -> Math.floorDiv(date.toEpochDay() + 3, 7);
        case MONTH -> (date.getYear() - 1970L) * 12 + date.getMonthValue() - 1;
        case YEAR -> date.getYear() - 1970L;
        default -> throw new IllegalStateException("not a calendar unit: " + unit);
      };
    }

    @Override
    public long startMillis(long index) {
      Span span = last;
      if (span.index() == index) {
        return span.startMillis();
      }
      return span.index() == index - 1 ? span.endMillis() : start(index);
    }

    private long start(long index) {
      return firstDay(index).atStartOfDay(zone).toInstant().toEpochMilli();
    }

    /** The first local day of window {@code index}. */
    private LocalDate firstDay(long index) {
      return switch (unit) {
        case DAY -> LocalDate.ofEpochDay(index);
        case WEEK -> LocalDate.ofEpochDay(index * 7 - 3);
        case MONTH ->
            LocalDate.of(Math.toIntExact(1970 + Math.floorDiv(index, 12)), 1, 1)
                .plusMonths(Math.floorMod(index, 12));
        case YEAR -> LocalDate.of(Math.toIntExact(1970 + index), 1, 1);
        default -> throw new IllegalStateException("not a calendar unit: " + unit);
      };
    }

    @Override
    public String keyPart() {
      return keyPart;
    }

    @Override
    public String label() {
      return keyPart;
    }

    @Override
    public String words() {
      return "calendar " + unit.name().toLowerCase(Locale.ROOT) + " in " + zone.getId();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Calendar c && c.unit == unit && c.zone.equals(zone);
    }

    @Override
    public int hashCode() {
      return 31 * unit.hashCode() + zone.hashCode();
    }

    @Override
    public String toString() {
      return "Calendar[unit=" + unit + ", zone=" + zone.getId() + "]";
    }
  }
}
