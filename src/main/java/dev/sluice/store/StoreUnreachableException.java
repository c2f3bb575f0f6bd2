package dev.sluice.store;

/**
 * The store cannot be reached at all: a connection was refused, or connecting timed out, or the
 * host is unknown. Unlike a slow reply, this says the store is down, so the circuit breaker opens
 * on it at once instead of waiting for a failure rate.
 */
public final class StoreUnreachableException extends StoreException {
  public StoreUnreachableException(String message, Throwable cause) {
    super(message, cause);
  }
}
