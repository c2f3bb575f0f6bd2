package dev.sluice.limiter;

/** The request itself is malformed; the service answers INVALID_ARGUMENT with this message. */
public class InvalidRequestException extends IllegalArgumentException {
  public InvalidRequestException(String message) {
    super(message);
  }
}
