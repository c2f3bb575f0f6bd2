package dev.sluice.admin;

/** An admin call the access check refused; {@link AdminFailure} turns it into a status. */
final class AdminDenied extends RuntimeException {
  enum Reason {
    /** No token or a wrong one: gRPC UNAUTHENTICATED, HTTP 401. */
    UNAUTHENTICATED,
    /** Writes are off (no token file, or read-only): gRPC PERMISSION_DENIED, HTTP 403. */
    PERMISSION_DENIED
  }

  private final Reason reason;

  AdminDenied(Reason reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  Reason reason() {
    return reason;
  }
}
