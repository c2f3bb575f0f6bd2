package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a client's HTTP/2 connection to the gRPC port may live. Envoy keeps its connections open
 * for ever, so without a maximum age a Sluice replica added later gets no traffic; after {@code
 * maxAge} the server sends GOAWAY and the client reconnects, to any replica.
 *
 * @param maxAge then GOAWAY (grpc-java adds ±10% jitter, as the reference's grpc-go does)
 * @param grace how long calls in flight may still finish before the connection is closed
 */
public record ConnectionAge(Duration maxAge, Duration grace) {
  public ConnectionAge {
    Objects.requireNonNull(maxAge, "maxAge");
    Objects.requireNonNull(grace, "grace");
    if (maxAge.isNegative() || maxAge.isZero()) {
      throw new IllegalArgumentException("grpc max connection age must be positive: " + maxAge);
    }
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grpc max connection age grace must be >= 0: " + grace);
    }
  }

  /** The reference service's defaults: 24 h, then 1 h of grace. */
  public static ConnectionAge defaults() {
    return new ConnectionAge(Duration.ofHours(24), Duration.ofHours(1));
  }
}
