package dev.sluice.limiter;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * What {@link RateLimiter#answer} gives: the {@link Decision} itself when it was made on the
 * calling thread (the memory store, an unknown domain, nothing to charge), else {@link Later}. The
 * caller of the usual in-process decision then needs no future (issue 16: a completed future per
 * request).
 */
public sealed interface Answer permits Decision, Answer.Later {

  /**
   * A decision still to come.
   *
   * @param decision completes as {@link RateLimiter#decide}'s future does (threads, failures)
   */
  record Later(CompletableFuture<Decision> decision) implements Answer {
    public Later {
      Objects.requireNonNull(decision, "decision");
    }
  }

  /** This answer as a future: the decision completed, or the one to come. */
  default CompletableFuture<Decision> future() {
    return this instanceof Later later
        ? later.decision()
        : CompletableFuture.completedFuture((Decision) this);
  }
}
