package dev.sluice.peer;

/**
 * One limiter of {@link EmbeddedComparison}, asked one decision at a time by many threads. Each
 * implementation configures the same three limits in its own terms, so that a scenario chooses
 * which one a decision meets, never a peer.
 */
interface ComparedLimiter extends AutoCloseable {
  /** The three limits every peer configures. */
  enum Kind {
    /** A billion a second: never refuses. */
    OPEN,
    /** One a second: the second of two back-to-back decisions on one key is refused. */
    ONE_PER_SECOND,
    /** One an hour, used up in the warmup: refuses every measured decision. */
    CLOSED
  }

  /** The limit {@link Kind#OPEN} allows per second (and holds as burst). */
  long OPEN_PER_SECOND = 1_000_000_000L;

  /** What the table calls this peer. */
  String name();

  /**
   * Takes one hit of {@code key} under {@code kind}'s limit, blocking until the answer is known.
   *
   * @return true when allowed
   */
  boolean tryAcquire(Kind kind, String key);

  @Override
  void close();
}
