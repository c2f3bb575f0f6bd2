package dev.sluice.store;

import java.util.List;

/**
 * Told about the round trips a store shares between requests (a Redis pipeline carries every
 * request queued on its connection), so tracing can record each such round trip once, linked from
 * every request it carried, instead of once per request or not at all. The store knows nothing of
 * spans: a request's trace is an opaque token. {@link #NONE} when tracing is off.
 */
public interface BatchTrace {
  BatchTrace NONE =
      new BatchTrace() {
        @Override
        public Object requestQueued() {
          return null;
        }

        @Override
        public Round batchSent(String node, List<Object> requests, int hits) {
          return Round.NONE;
        }
      };

  /**
   * On the caller's thread, as a request is queued: what identifies the trace it belongs to, or
   * null for none. Must be cheap and never throw.
   */
  Object requestQueued();

  /**
   * On the store's writer thread, as one round trip is sent.
   *
   * @param node the address it goes to
   * @param requests the tokens {@link #requestQueued} gave for the requests it carries, in order
   *     (nulls included)
   * @param hits the counters it touches
   * @return ended once the replies are read
   */
  Round batchSent(String node, List<Object> requests, int hits);

  /** One round trip under way. */
  interface Round {
    Round NONE = failure -> {};

    /**
     * @param failure why the round trip failed, or null
     */
    void ended(Throwable failure);
  }
}
