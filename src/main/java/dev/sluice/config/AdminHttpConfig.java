package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How the admin HTTP port protects itself from slow and many clients, so {@code /healthcheck} (the
 * Kubernetes probe) keeps answering whatever other callers do.
 *
 * @param headerTimeout how long a connection may take, from the moment it is opened, to send its
 *     request line and headers; then it is closed
 * @param bodyTimeout how long a request body may take to arrive whole once its headers are in; then
 *     the answer is 408 and the connection is closed
 * @param maxConnections connections open at once; a new one beyond it closes the one that has
 *     waited longest for its headers (or itself, when every other is being answered)
 * @param threads threads that run the handlers that may block ({@code /json}, {@code /explain},
 *     {@code /counters}, {@code /rules}, {@code /metrics}, the live page); {@code /healthcheck}
 *     never waits for them
 */
public record AdminHttpConfig(
    Duration headerTimeout, Duration bodyTimeout, int maxConnections, int threads) {
  public AdminHttpConfig {
    positive("http header timeout", headerTimeout);
    positive("http body timeout", bodyTimeout);
    if (maxConnections < 1) {
      throw new IllegalArgumentException("http max connections must be >= 1: " + maxConnections);
    }
    if (threads < 1) {
      throw new IllegalArgumentException("http threads must be >= 1: " + threads);
    }
  }

  /** 5 s for headers, 10 s for a body, 256 connections, 4 handler threads. */
  public static AdminHttpConfig defaults() {
    return new AdminHttpConfig(Duration.ofSeconds(5), Duration.ofSeconds(10), 256, 4);
  }

  private static void positive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
  }
}
