package dev.sluice;

/** Sluice cannot start; the message is one line meant for the operator. */
public class StartupException extends RuntimeException {
  public StartupException(String message) {
    super(message);
  }

  public StartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
