package dev.sluice.store;

/**
 * The store answered, but refused one key's command because of that key's data (a counter at the
 * top of the integer range, a key of the wrong type). The store itself is healthy, so this never
 * counts towards the circuit breaker: otherwise one caller could poison one key and switch limiting
 * off for every key (issue 11.1).
 */
public final class StoreDataException extends StoreException {
  public StoreDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
