package dev.sluice.testing;

import java.time.Duration;

/** Polls a condition with a deadline, for waiting on real processes and background threads. */
public final class Eventually {
  private Eventually() {}

  /** A condition to poll; it may throw, as an HTTP request to a process under test does. */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  /**
   * Returns once {@code condition} holds, polling every 10 ms.
   *
   * @throws AssertionError when it still does not hold after {@code timeout}, or when checking it
   *     threw (with that exception as the cause)
   */
  public static void await(Duration timeout, String what, Condition condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!holds(condition, what)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what, e);
      }
    }
  }

  private static boolean holds(Condition condition, String what) {
    try {
      return condition.holds();
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new AssertionError("checking " + what + " failed", e);
    }
  }
}
