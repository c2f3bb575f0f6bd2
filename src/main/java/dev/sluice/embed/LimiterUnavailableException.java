package dev.sluice.embed;

/**
 * The store could not answer and the failure mode is {@code ERROR} (the default): the caller
 * decides, as Envoy's {@code failure_mode_deny} does for a server. The message says why (Redis
 * unreachable, timed out, circuit open, queue full).
 */
public final class LimiterUnavailableException extends RuntimeException {
  LimiterUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
