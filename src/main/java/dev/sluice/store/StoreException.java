package dev.sluice.store;

/** The store could not answer (connection refused, timeout, script error). */
public class StoreException extends RuntimeException {
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public StoreException(String message) {
    super(message);
  }
}
