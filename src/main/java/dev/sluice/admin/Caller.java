package dev.sluice.admin;

import java.util.Objects;
import java.util.Optional;

/**
 * Who asks the admin API, for the access check and the audit line.
 *
 * @param transport {@code http} or {@code grpc}
 * @param address the peer's address as the transport reports it
 * @param bearerToken the token from {@code Authorization: Bearer <token>}, when one was sent
 */
public record Caller(String transport, String address, Optional<String> bearerToken) {
  private static final String BEARER = "bearer ";

  public Caller {
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(bearerToken, "bearerToken");
  }

  /** The token of an {@code Authorization} header value; empty when it is absent or not Bearer. */
  public static Optional<String> bearerOf(String authorization) {
    if (authorization == null
        || authorization.length() <= BEARER.length()
        || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return Optional.empty();
    }
    return Optional.of(authorization.substring(BEARER.length()).trim());
  }

  /** Never prints the token. */
  @Override
  public String toString() {
    return address + " (" + transport + (bearerToken.isPresent() ? ", with token)" : ")");
  }
}
