package dev.sluice.store.algorithm;

import dev.sluice.rules.Limit;
import dev.sluice.store.Usage;

/**
 * A token bucket at one instant, shared by both stores: the memory store keeps these, the Redis
 * store reads one back for an operator's inspect. The arithmetic is the same, operation for
 * operation, as {@code lua/token_bucket.lua}, so both stores give the same answers; this copy is
 * the one tested with a fake clock.
 *
 * @param tokens tokens in the bucket, fractional because refill is continuous
 * @param atMicros when {@code tokens} was true, in microseconds since the epoch
 */
public record TokenBucketState(double tokens, long atMicros) {

  /**
   * The outcome of one take: the new state (this one unchanged unless tokens were taken), what to
   * report, and how long to keep the state (until full).
   */
  public record Take(TokenBucketState state, Usage usage, long ttlMillis) {}

  /**
   * A limit's refill at one instant: {@code requests_per_unit} tokens per the length of the window
   * holding that instant, which for a calendar window changes from one window to the next (a month
   * of 31 days refills slower per second than one of 28). One take refills all the time since the
   * bucket's last take at this one rate. Both stores compute the window in whole seconds, as the
   * scripts are sent it.
   *
   * @param windowMicros the window's length, a whole number of seconds in microseconds
   */
  public record Refill(Limit limit, long windowMicros) {
    /** The refill of {@code limit} at {@code nowMicros}. */
    public static Refill of(Limit limit, long nowMicros) {
      return new Refill(
          limit, windowSeconds(limit, CountingAlgorithm.epochMillis(nowMicros)) * 1_000_000L);
    }

    double perMicro() {
      return limit.requestsPerUnit() / (double) windowMicros;
    }
  }

  /**
   * The length in whole seconds of {@code limit}'s window holding {@code nowMillis}: what the
   * scripts are sent as the window.
   */
  public static long windowSeconds(Limit limit, long nowMillis) {
    return limit.window().lengthMillis(nowMillis) / 1000;
  }

  public static TokenBucketState full(Limit limit, long nowMicros) {
    return new TokenBucketState(limit.burst(), nowMicros);
  }

  /**
   * Refills for the time elapsed, then takes {@code hits} tokens if the bucket holds them. The
   * usage's reset is the time until the bucket is full again (allowed), until it holds {@code hits}
   * (refused), or, for more hits than the burst, which no wait can satisfy, the time a whole bucket
   * takes to refill ({@code burst / rate}; one window when it never refills): never 0, so a client
   * that waits for it does not retry at once.
   */
  public Take take(Limit limit, long hits, long nowMicros) {
    return take(Refill.of(limit, nowMicros), hits, nowMicros);
  }

  /** {@link #take} at the rate of {@code refill}, whatever window {@code nowMicros} is in. */
  public Take take(Refill refill, long hits, long nowMicros) {
    double available = available(tokens, atMicros, refill, nowMicros);
    boolean allowed = hits <= available;
    double left = allowed ? available - hits : available;
    // Only a take that takes tokens moves the state: a refused take or a read leaves it as it was
    // (it still describes the bucket, refilled from atMicros), so the script need not write then.
    TokenBucketState next = allowed && hits > 0 ? new TokenBucketState(left, nowMicros) : this;
    return new Take(next, usage(refill, hits, allowed, left), ttlMillis(refill, left));
  }

  /**
   * The tokens a bucket that held {@code tokens} at {@code atMicros} holds at {@code nowMicros}:
   * refilled for the time elapsed, up to the burst. With {@link #usage} and {@link #ttlMillis}, the
   * steps of {@link #take} on plain values, so the memory store can take from a stored bucket
   * without a state and a take per hit (issue 16).
   */
  static double available(double tokens, long atMicros, Refill refill, long nowMicros) {
    long elapsed = Math.max(0, nowMicros - atMicros);
    return Math.min(refill.limit().burst(), tokens + elapsed * refill.perMicro());
  }

  /**
   * What a take of {@code hits} reports when it leaves {@code left} tokens ({@code allowed}: it
   * took them; else it took nothing).
   */
  static Usage usage(Refill refill, long hits, boolean allowed, double left) {
    double capacity = refill.limit().burst();
    double ratePerMicro = refill.perMicro();
    long windowMicros = refill.windowMicros();
    long untilReset;
    if (hits > capacity) {
      // No wait lets it through; a whole bucket's refill time, never 0 (issue 11.10).
      untilReset = microsUntil(capacity, ratePerMicro, windowMicros);
    } else if (allowed) {
      untilReset = microsUntil(capacity - left, ratePerMicro, windowMicros);
    } else {
      untilReset = microsUntil(hits - left, ratePerMicro, windowMicros);
    }
    long whole = (long) Math.floor(left);
    long countAfter = (long) capacity - whole + (allowed ? 0 : hits);
    return new Usage(!allowed, whole, untilReset, countAfter);
  }

  /** How long to keep a bucket holding {@code left} tokens: until it is full again. */
  static long ttlMillis(Refill refill, double left) {
    long untilFull =
        microsUntil(refill.limit().burst() - left, refill.perMicro(), refill.windowMicros());
    // In doubles, as the script computes it, so both keep a bucket to the same millisecond.
    return (long) Math.max(1, Math.floor(((double) untilFull + 999) / 1000));
  }

  /**
   * The longest wait reported, the largest double below 2^63 microseconds (about 292,000 years), so
   * the Lua twin, whose numbers are doubles, reports the same. A burst of 2^32 tokens at 16 a day
   * is billions of years, past a long: Redis turned it into -2^63 (found by
   * TokenBucketArithmeticFuzzTest).
   */
  static final double MAX_WAIT_MICROS = Math.nextDown(0x1p63);

  /**
   * Microseconds until {@code missing} tokens have dripped in, at most {@link #MAX_WAIT_MICROS}; a
   * bucket that never refills says a window.
   */
  private static long microsUntil(double missing, double ratePerMicro, long windowMicros) {
    if (missing <= 0) {
      return 0;
    }
    if (ratePerMicro <= 0) {
      return windowMicros;
    }
    return (long) Math.min(MAX_WAIT_MICROS, Math.ceil(missing / ratePerMicro));
  }
}
