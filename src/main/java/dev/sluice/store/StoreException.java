package dev.sluice.store;

/** The store could not answer (connection refused, timeout, script error). */
public class StoreException extends RuntimeException {
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public StoreException(String message) {
    super(message);
  }

  /**
   * Without a stack trace, for a failure that is an expected outcome under load and made for many
   * requests a second (filling in a stack costs microseconds each).
   */
  protected StoreException(String message, boolean stackTrace) {
    super(message, null, false, stackTrace);
  }
}
