package dev.sluice.bench;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * What the measured requests of one run came to, counted as they end and merged once into a {@link
 * BenchResult}: sent, OK, OVER_LIMIT, errors by code with each code's first message, the latencies
 * of the answered ones (OK and OVER_LIMIT) from their start time, and how many of those came within
 * the deadline (goodput).
 *
 * <p>Thread-safe without locks: the counting methods run on whichever thread sends or answers a
 * call (a channel's event loop, {@code bench-after-error}, the thread that called the generator),
 * and add to {@link LongAdder}s, a concurrent map and an HdrHistogram {@link Recorder}. {@link
 * #toResult} is called once, by the thread that ran the generator, after the drain.
 */
final class Outcomes {
  private final Recorder latencies =
      new Recorder(LatencySummary.HIGHEST_NANOS, LatencySummary.SIGNIFICANT_DIGITS);
  private final LongAdder sent = new LongAdder();
  private final LongAdder ok = new LongAdder();
  private final LongAdder overLimit = new LongAdder();
  private final LongAdder withinDeadline = new LongAdder();
  private final long deadlineNanos;
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final Map<String, String> firstErrors = new ConcurrentHashMap<>();

  /**
   * @param deadlineNanos each request's deadline: an answer later than this from its start is not
   *     goodput
   */
  Outcomes(long deadlineNanos) {
    this.deadlineNanos = deadlineNanos;
  }

  /** A measured request is about to be sent. */
  void sent() {
    sent.increment();
  }

  /**
   * A measured request was answered with {@code answer}; OK and OVER_LIMIT record the latency from
   * {@code startNanos} (a {@link System#nanoTime()}) to now, any other code counts as an error.
   */
  void answered(RateLimitResponse.Code answer, long startNanos) {
    answered(answer, startNanos, startNanos);
  }

  /**
   * {@link #answered(RateLimitResponse.Code, long)}, for a request sent at {@code sentNanos} (later
   * than its due time when the generator fell behind): goodput counts from the send, as the call's
   * gRPC deadline does, so a generator short of CPU does not read as a slow server.
   */
  void answered(RateLimitResponse.Code answer, long startNanos, long sentNanos) {
    if (answer != RateLimitResponse.Code.OK && answer != RateLimitResponse.Code.OVER_LIMIT) {
      failed("OVERALL_CODE_" + answer, "the server answered overall_code " + answer);
      return;
    }
    long now = System.nanoTime();
    latencies.recordValue(LatencySummary.capped(now - startNanos));
    (answer == RateLimitResponse.Code.OK ? ok : overLimit).increment();
    if (now - sentNanos <= deadlineNanos) {
      withinDeadline.increment();
    }
  }

  /** A measured request failed with {@code code}; the first {@code message} per code is kept. */
  void failed(String code, String message) {
    errors.computeIfAbsent(code, c -> new LongAdder()).increment();
    firstErrors.putIfAbsent(code, message);
  }

  /**
   * The counts so far as a result. When the drain timed out ({@code drained} false), the requests
   * sent but neither answered nor failed are counted as {@code UNFINISHED} errors, so {@code ok +
   * over_limit + errors = sent} holds either way. Takes the recorded latencies: call once.
   *
   * @param processCpuNanos CPU time over the window, -1 when unknown
   */
  BenchResult toResult(
      BenchResult.Setup setup, Duration measured, boolean drained, long processCpuNanos) {
    long okCount = ok.sum();
    long overCount = overLimit.sum();
    Map<String, Long> errorCounts = new HashMap<>();
    errors.forEach((code, count) -> errorCounts.put(code, count.sum()));
    long sentCount = sent.sum();
    long answered = okCount + overCount + errorCounts.values().stream().mapToLong(n -> n).sum();
    if (!drained && sentCount > answered) {
      errorCounts.merge("UNFINISHED", sentCount - answered, Long::sum);
    }
    return new BenchResult(
        setup,
        new BenchResult.Counts(sentCount, okCount, overCount, errorCounts, withinDeadline.sum()),
        measured,
        LatencySummary.from(latencies.getIntervalHistogram()),
        firstErrors,
        processCpuNanos);
  }
}
