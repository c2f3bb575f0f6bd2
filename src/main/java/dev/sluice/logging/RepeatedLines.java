package dev.sluice.logging;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;

/**
 * A warning that a client can make happen thousands of times a second (a protocol error on every
 * call), logged at most once per kind per interval: the first of a kind at once, the next ones
 * counted, and the count reported in one line once the interval has passed, by the next of that
 * kind or by {@link #flush}, whichever comes first. No stack trace is ever written: the lines are
 * about what a client did, not about a fault in Sluice.
 *
 * <p>Thread-safe: {@link #warn} is called from any thread (the event loops); {@link #flush} from
 * the scheduler. At most {@link #MAX_KINDS} kinds are tallied; later ones share one tally.
 */
public final class RepeatedLines {
  /** Kinds come from code, not from clients; this only bounds a mistake. */
  public static final int MAX_KINDS = 64;

  private static final String OTHER = "other repeated warnings";

  private final Logger log;
  private final Clock clock;
  private final Duration interval;
  private final Map<String, Tally> tallies = new ConcurrentHashMap<>();

  /**
   * @param log where the lines go, at WARN
   * @param interval the least time between two lines of one kind
   */
  public RepeatedLines(Logger log, Clock clock, Duration interval) {
    this.log = Objects.requireNonNull(log, "log");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive: " + interval);
    }
    this.interval = interval;
  }

  /**
   * Logs {@code kind: detail} now, or counts it when a line of {@code kind} was logged less than an
   * interval ago.
   *
   * @param kind a fixed text naming what happened (also the tally's key)
   * @param detail this occurrence's details; made safe with {@link LogText#safe}
   */
  public void warn(String kind, String detail) {
    String line = tallyOf(kind).record(clock.millis(), LogText.safe(detail));
    if (line != null) {
      log.warn(line);
    }
  }

  /** Reports the count of every kind whose interval has passed since its last line. */
  public void flush() {
    long now = clock.millis();
    for (Tally tally : tallies.values()) {
      String line = tally.flush(now);
      if (line != null) {
        log.warn(line);
      }
    }
  }

  private Tally tallyOf(String kind) {
    Tally tally = tallies.get(kind);
    if (tally != null) {
      return tally;
    }
    String key = tallies.size() < MAX_KINDS ? kind : OTHER;
    return tallies.computeIfAbsent(key, Tally::new);
  }

  /** One kind's last line and what came after it; the monitor guards every field. */
  private final class Tally {
    private final String kind;
    private long lastLineMillis = Long.MIN_VALUE;
    private long unreported;
    private String lastDetail = "";

    Tally(String kind) {
      this.kind = kind;
    }

    /** The line to log now, or null when this one is only counted. */
    synchronized String record(long now, String detail) {
      lastDetail = detail;
      if (lastLineMillis != Long.MIN_VALUE && now - lastLineMillis < interval.toMillis()) {
        unreported++;
        return null;
      }
      String line = kind + ": " + detail;
      if (unreported > 0) {
        line += " (after " + counted(now) + ")";
      }
      return reset(now, line);
    }

    /** The count since the last line once an interval has passed, else null. */
    synchronized String flush(long now) {
      if (unreported == 0 || now - lastLineMillis < interval.toMillis()) {
        return null;
      }
      return reset(now, kind + ": " + counted(now) + "; the last: " + lastDetail);
    }

    private String counted(long now) {
      long seconds = Duration.ofMillis(now - lastLineMillis).toSeconds();
      return unreported + " more in the last " + seconds + " s, counted, not logged";
    }

    private String reset(long now, String line) {
      lastLineMillis = now;
      unreported = 0;
      return line;
    }
  }
}
