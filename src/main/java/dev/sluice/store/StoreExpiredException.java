package dev.sluice.store;

import java.util.Objects;

/**
 * The store dropped a request before writing it because its caller stopped waiting ({@link
 * Patience}): nothing was sent, so nothing was charged. The store is healthy, so this never counts
 * towards the circuit breaker; the request is answered by the failure mode (if its caller still
 * reads an answer) and counted in {@code sluice_requests_expired_total} by its {@link #stage}.
 */
public final class StoreExpiredException extends StoreException {
  private final Expiry stage;

  public StoreExpiredException(Expiry stage, String where) {
    super(
        "expired: caller " + (stage == Expiry.CANCELLED ? "gone" : "deadline passed") + " " + where,
        false);
    this.stage = Objects.requireNonNull(stage, "stage");
  }

  /** Where it was dropped. */
  public Expiry stage() {
    return stage;
  }
}
