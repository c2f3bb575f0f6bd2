package dev.sluice.peer;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Which keys and limits a row's decisions meet. The half-refused rows do not depend on how fast a
 * peer is: random keys come in back-to-back pairs on a one-a-second limit (the first allowed, the
 * second refused), and the hot key's decisions alternate between an open and a used-up limit.
 */
enum Scenario {
  RANDOM_ALLOWED("random", "all allowed"),
  RANDOM_HALF("random", "half refused"),
  HOT_ALLOWED("hot", "all allowed"),
  HOT_HALF("hot", "half refused");

  final String keys;
  final String outcome;

  Scenario(String keys, String outcome) {
    this.keys = keys;
    this.outcome = outcome;
  }

  /** One caller thread's sequence of decisions; not thread-safe, one per thread. */
  final class Calls {
    private long made;
    private String key = "";
    private ComparedLimiter.Kind kind = ComparedLimiter.Kind.OPEN;

    /** Moves to the next decision: {@link #kind} and {@link #key} then describe it. */
    void next() {
      switch (Scenario.this) {
        case RANDOM_ALLOWED -> key = randomKey();
        case RANDOM_HALF -> {
          kind = ComparedLimiter.Kind.ONE_PER_SECOND;
          if (made % 2 == 0) {
            key = randomKey();
          }
        }
        case HOT_ALLOWED -> key = EmbeddedComparison.HOT_PREFIX + "key";
        case HOT_HALF -> {
          key = EmbeddedComparison.HOT_PREFIX + "key";
          kind = made % 2 == 0 ? ComparedLimiter.Kind.OPEN : ComparedLimiter.Kind.CLOSED;
        }
      }
      made++;
    }

    ComparedLimiter.Kind kind() {
      return kind;
    }

    String key() {
      return key;
    }
  }

  Calls calls() {
    return new Calls();
  }

  private static String randomKey() {
    return Long.toHexString(ThreadLocalRandom.current().nextLong());
  }
}
