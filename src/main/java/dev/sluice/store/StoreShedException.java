package dev.sluice.store;

/**
 * The store refused a request at once because too much work was already waiting for it: load
 * shedding. Nothing was sent, so nothing was counted. The store itself is healthy (only busy), so
 * this never counts towards the circuit breaker; the request is answered by the failure mode like
 * any store failure, and counted in {@code sluice_store_shed_total}.
 */
public final class StoreShedException extends StoreException {
  public StoreShedException(String message) {
    super(message);
  }
}
