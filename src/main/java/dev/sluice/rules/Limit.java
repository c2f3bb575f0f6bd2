package dev.sluice.rules;

import java.util.Objects;

/**
 * What a counted rule allows: {@code requestsPerUnit} hits per {@code window}, counted by {@code
 * algorithm}. For a token bucket {@code burst} is the bucket's capacity; for a fixed window it
 * equals {@code requestsPerUnit} and has no other meaning.
 *
 * @param requestsPerUnit hits allowed per window, 0..4294967295 (Envoy's field is a uint32)
 * @param window one unit, several ({@code unit_multiplier}) or a calendar unit in a time zone
 * @param burst token-bucket capacity in tokens, 0..4294967295
 * @param consistency where the shared counter lives; it is not part of the counter's key, so an
 *     exact and a synced instance of one rule share their counts
 */
public record Limit(
    long requestsPerUnit, Window window, Algorithm algorithm, long burst, Consistency consistency) {

  /** The largest value of Envoy's uint32 {@code requests_per_unit} and {@code limit_remaining}. */
  public static final long MAX_UINT32 = 0xFFFF_FFFFL;

  public Limit {
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(algorithm, "algorithm");
    if (requestsPerUnit < 0 || requestsPerUnit > MAX_UINT32) {
      throw new IllegalArgumentException(
          "requests_per_unit must be between 0 and " + MAX_UINT32 + ": " + requestsPerUnit);
    }
    if (burst < 0 || burst > MAX_UINT32) {
      throw new IllegalArgumentException(
          "burst must be between 0 and " + MAX_UINT32 + ": " + burst);
    }
    if (!algorithm.takesBurst() && burst != requestsPerUnit) {
      throw new IllegalArgumentException("burst applies only to token_bucket: " + burst);
    }
    Objects.requireNonNull(consistency, "consistency");
    if (!consistency.supports(algorithm)) {
      throw new IllegalArgumentException(
          algorithm.configName() + " cannot be counted " + consistency.configName());
    }
    // Only what no algorithm class could count: a client's override of any unit stays as it was
    // (a sliding window per week included); the loader rejects the rest with FILE:LINE.
    if (window instanceof Window.Calendar && !algorithm.allows(window)) {
      throw new IllegalArgumentException(
          algorithm.configName() + " cannot count per " + window.words());
    }
  }

  /** One whole {@code unit} per window, aligned to the epoch. */
  public Limit(
      long requestsPerUnit, Unit unit, Algorithm algorithm, long burst, Consistency consistency) {
    this(requestsPerUnit, Window.of(unit), algorithm, burst, consistency);
  }

  /** The unit the RLS answer reports ({@code current_limit.unit}): the window's unit. */
  public Unit unit() {
    return window.unit();
  }

  /** An {@link Consistency#EXACT} limit. */
  public Limit(long requestsPerUnit, Unit unit, Algorithm algorithm, long burst) {
    this(requestsPerUnit, unit, algorithm, burst, Consistency.EXACT);
  }

  /** This limit, counted by {@code newConsistency}. */
  public Limit withConsistency(Consistency newConsistency) {
    return new Limit(requestsPerUnit, window, algorithm, burst, newConsistency);
  }

  /** A limit whose burst is its rate: a fixed window, or a token bucket holding one window. */
  public static Limit of(long requestsPerUnit, Unit unit, Algorithm algorithm) {
    return new Limit(requestsPerUnit, unit, algorithm, requestsPerUnit);
  }

  /**
   * The most hits one window (fixed window) or one full bucket (token bucket) can hold: the burst,
   * which equals the rate for an algorithm without one.
   */
  public long capacity() {
    return burst;
  }

  /** The limit in words: {@code 100 per 15 minutes}, {@code 3 per calendar month in UTC}. */
  public String inWords() {
    return requestsPerUnit + " per " + window.words();
  }

  /** {@link #inWords} and how it is counted: {@code 100 per 15 minutes, token_bucket, burst 20}. */
  public String describe() {
    String text = inWords() + ", " + algorithm.configName();
    return algorithm.takesBurst() ? text + ", burst " + burst : text;
  }

  /** This limit split {@code instances} ways, rounded up, for each instance to enforce alone. */
  public Limit share(int instances) {
    return new Limit(
        ceilDiv(requestsPerUnit, instances),
        window,
        algorithm,
        ceilDiv(burst, instances),
        consistency);
  }

  private static long ceilDiv(long value, int by) {
    return (value + by - 1) / by;
  }
}
