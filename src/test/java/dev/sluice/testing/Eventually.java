package dev.sluice.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition with a deadline, for waiting on real processes and background threads. */
public final class Eventually {
  private Eventually() {}

  public static void await(Duration timeout, String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
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
}
