package dev.sluice.bench;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What one measurement found, printable for people ({@link #toText}) and for scripts as one flat
 * JSON line ({@link #toJson}). The Bucket4j peer prints the same shape, so one script can tabulate
 * both.
 *
 * @param measured the measurement window (warmup excluded)
 * @param firstErrors the first message seen for each error code in {@link Counts#errors}, so a
 *     failing run says why; may be empty
 * @param processCpuNanos CPU time this process used during the window (all threads), -1 when the
 *     JVM cannot tell; read by the process itself, so it is exact even when the process exits right
 *     after
 */
public record BenchResult(
    Setup setup,
    Counts counts,
    Duration measured,
    LatencySummary latency,
    Map<String, String> firstErrors,
    long processCpuNanos) {
  public BenchResult {
    Objects.requireNonNull(setup, "setup");
    Objects.requireNonNull(counts, "counts");
    Objects.requireNonNull(measured, "measured");
    Objects.requireNonNull(latency, "latency");
    firstErrors = Map.copyOf(firstErrors);
  }

  /** A result without error messages and without a CPU reading. */
  public BenchResult(Setup setup, Counts counts, Duration measured, LatencySummary latency) {
    this(setup, counts, measured, latency, Map.of(), -1);
  }

  /**
   * What was measured.
   *
   * @param tool e.g. {@code sluice-bench}
   * @param mode {@code closed} (concurrency requests always in flight) or {@code open} (fixed rate)
   * @param ratePerSecond the open-loop rate; 0 for closed loop
   */
  public record Setup(
      String tool,
      String target,
      String mode,
      int concurrency,
      double ratePerSecond,
      int descriptorsPerRequest,
      String keys) {}

  /**
   * Outcomes of the requests sent in the measurement window: {@code ok + overLimit + errors =
   * sent}.
   *
   * @param errors failed requests by gRPC status code name (or another short reason)
   */
  public record Counts(
      long sent, long ok, long overLimit, Map<String, Long> errors, long withinDeadline) {
    public Counts {
      errors = Map.copyOf(errors);
      if (withinDeadline < 0 || withinDeadline > ok + overLimit) {
        throw new IllegalArgumentException(
            "answers within the deadline must be 0.." + (ok + overLimit) + ": " + withinDeadline);
      }
    }

    /** Every answer counted as delivered within its deadline (a generator that does not time). */
    public Counts(long sent, long ok, long overLimit, Map<String, Long> errors) {
      this(sent, ok, overLimit, errors, ok + overLimit);
    }

    public long errorCount() {
      return errors.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /** Answered requests (OK or OVER_LIMIT, not errors) per second of the measurement window. */
  public double decisionsPerSecond() {
    double seconds = measured.toNanos() / 1e9;
    return seconds > 0 ? (counts.ok() + counts.overLimit()) / seconds : 0;
  }

  /**
   * Goodput: answers (OK or OVER_LIMIT) that arrived within the request's deadline, counted from
   * its send as its gRPC deadline is, per second of the window. Errors, shed requests and late
   * answers are not goodput; neither should failure-policy answers be, which the generator cannot
   * tell apart, so measure goodput against a server running {@code --failure-mode error}.
   */
  public double goodputPerSecond() {
    double seconds = measured.toNanos() / 1e9;
    return seconds > 0 ? counts.withinDeadline() / seconds : 0;
  }

  /** A few lines for people. */
  public String toText() {
    String loop =
        setup.mode().equals("open")
            ? String.format(Locale.ROOT, "open loop at %.1f/s", setup.ratePerSecond())
            : "closed loop";
    StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            Locale.ROOT,
            "%s -> %s: %s, concurrency %d, %d descriptor(s) per request, keys %s, %.1f s%n",
            setup.tool(),
            setup.target(),
            loop,
            setup.concurrency(),
            setup.descriptorsPerRequest(),
            setup.keys(),
            measured.toNanos() / 1e9));
    text.append(
        String.format(
            Locale.ROOT,
            "decisions/s %.1f  goodput/s %.1f  sent %d  ok %d  over_limit %d  errors %d%n",
            decisionsPerSecond(),
            goodputPerSecond(),
            counts.sent(),
            counts.ok(),
            counts.overLimit(),
            counts.errorCount()));
    text.append("latency ").append(latency.toText()).append(System.lineSeparator());
    long answered = counts.ok() + counts.overLimit();
    if (processCpuNanos >= 0 && answered > 0) {
      text.append(
          String.format(
              Locale.ROOT,
              "process CPU %.3f s in the window, %.1f us per answered request%n",
              processCpuNanos / 1e9,
              processCpuNanos / 1e3 / answered));
    }
    if (!counts.errors().isEmpty()) {
      text.append("errors by code: ").append(errorList()).append(System.lineSeparator());
    }
    new TreeMap<>(firstErrors)
        .forEach(
            (code, message) ->
                text.append("first ")
                    .append(code)
                    .append(": ")
                    .append(message)
                    .append(System.lineSeparator()));
    return text.toString();
  }

  private String errorList() {
    return new TreeMap<>(counts.errors())
        .entrySet().stream()
            .map(e -> e.getKey() + " " + e.getValue())
            .collect(Collectors.joining(", "));
  }

  /** One line of flat JSON: string, integer and decimal fields only, latencies in microseconds. */
  public String toJson() {
    return String.format(
        Locale.ROOT,
        "{\"tool\":\"%s\",\"target\":\"%s\",\"mode\":\"%s\",\"concurrency\":%d,\"rate\":%.1f,"
            + "\"descriptors\":%d,\"keys\":\"%s\",\"duration_s\":%.3f,\"sent\":%d,\"ok\":%d,"
            + "\"over_limit\":%d,\"errors\":%d,\"decisions_per_s\":%.1f,\"goodput_per_s\":%.1f,"
            + "%s,\"cpu_s\":%s}",
        jsonText(setup.tool()),
        jsonText(setup.target()),
        jsonText(setup.mode()),
        setup.concurrency(),
        setup.ratePerSecond(),
        setup.descriptorsPerRequest(),
        jsonText(setup.keys()),
        measured.toNanos() / 1e9,
        counts.sent(),
        counts.ok(),
        counts.overLimit(),
        counts.errorCount(),
        decisionsPerSecond(),
        goodputPerSecond(),
        latency.toJsonFields(),
        processCpuNanos < 0 ? "-1" : String.format(Locale.ROOT, "%.3f", processCpuNanos / 1e9));
  }

  private static String jsonText(String text) {
    StringBuilder escaped = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        escaped.append('\\').append(c);
      } else if (c < 0x20) {
        escaped.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        escaped.append(c);
      }
    }
    return escaped.toString();
  }
}
