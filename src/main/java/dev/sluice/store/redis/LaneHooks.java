package dev.sluice.store.redis;

import dev.sluice.store.BatchTrace;
import dev.sluice.store.Patience;
import java.util.Objects;

/**
 * What a Redis store's lanes tell and ask outside the store.
 *
 * @param trace told about each pipeline sent ({@link BatchTrace#NONE} without tracing)
 * @param callers the {@link Patience} of the request being submitted, asked on the submitting
 *     thread ({@link Patience.Source#NONE} outside a gRPC server): a lane never writes a request
 *     whose caller stopped waiting
 */
public record LaneHooks(BatchTrace trace, Patience.Source callers) {
  /** No trace, and every caller waits without end. */
  public static final LaneHooks NONE = new LaneHooks(BatchTrace.NONE, Patience.Source.NONE);

  public LaneHooks {
    Objects.requireNonNull(trace, "trace");
    Objects.requireNonNull(callers, "callers");
  }
}
