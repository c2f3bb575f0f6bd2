package dev.sluice.bench;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which key value each request carries: {@code hot} (one value for every request), {@code random}
 * (a fresh random value per request, so nearly every request makes a new counter) or {@code N}
 * (round-robin over the values {@code 0..N-1}).
 *
 * @param distinctValues 1 for hot, N for round-robin, 0 for random (unbounded)
 */
public record KeyMode(Kind kind, int distinctValues) {
  /** The value every hot request carries. */
  public static final String HOT_VALUE = "hot";

  public enum Kind {
    HOT,
    RANDOM,
    ROUND_ROBIN
  }

  public KeyMode {
    if (kind == Kind.ROUND_ROBIN && distinctValues < 1) {
      throw new IllegalArgumentException("key count must be >= 1: " + distinctValues);
    }
  }

  public static KeyMode hot() {
    return new KeyMode(Kind.HOT, 1);
  }

  public static KeyMode random() {
    return new KeyMode(Kind.RANDOM, 0);
  }

  public static KeyMode roundRobin(int values) {
    return new KeyMode(Kind.ROUND_ROBIN, values);
  }

  /**
   * Parses {@code hot}, {@code random} or a positive count.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  public static KeyMode parse(String text) {
    String value = text.trim().toLowerCase(Locale.ROOT);
    switch (value) {
      case "hot":
        return hot();
      case "random":
        return random();
      default:
        try {
          return roundRobin(Integer.parseInt(value));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "invalid keys '" + text + "'; expected random, hot or a count >= 1");
        }
    }
  }

  /** A thread-safe source of key values in this mode. */
  public Source source() {
    return switch (kind) {
      case HOT -> () -> HOT_VALUE;
      case RANDOM -> () -> Long.toHexString(ThreadLocalRandom.current().nextLong());
      case ROUND_ROBIN -> roundRobinSource();
    };
  }

  private Source roundRobinSource() {
    AtomicLong next = new AtomicLong();
    return () -> Long.toString(next.getAndIncrement() % distinctValues);
  }

  @Override
  public String toString() {
    return switch (kind) {
      case HOT -> "hot";
      case RANDOM -> "random";
      case ROUND_ROBIN -> Integer.toString(distinctValues);
    };
  }

  /** Produces key values; safe to call from many threads. */
  @FunctionalInterface
  public interface Source {
    String next();
  }
}
