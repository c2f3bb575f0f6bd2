package dev.sluice.service;

import dev.sluice.store.Patience;
import io.grpc.Context;
import io.grpc.Deadline;
import java.util.concurrent.TimeoutException;

/**
 * A gRPC call's {@link Patience}: its context's deadline (Envoy sends {@code grpc-timeout}, 20 ms
 * by default) and its cancellation. grpc-java cancels a server call's context when the client
 * cancels or resets the stream (Envoy does when its own timeout fires), and when the deadline
 * passes ({@link TimeoutException} as the cause).
 *
 * <p>Thread-safety: {@link #CURRENT} reads the context attached to the calling thread, so it must
 * be asked on the thread gRPC runs the handler on (the limiter calls the store there); {@link
 * #state} may then be read on any thread (a Redis lane's writer).
 */
public final class GrpcPatience implements Patience {
  /**
   * The patience of the call handled on the calling thread; {@link Patience#ENDLESS} on a thread
   * with no call (a scheduler, a Redis lane following a redirect, the embedded limiter).
   */
  public static final Patience.Source CURRENT = GrpcPatience::current;

  private final Context context;

  private GrpcPatience(Context context) {
    this.context = context;
  }

  private static Patience current() {
    Context context = Context.current();
    return context == Context.ROOT ? Patience.ENDLESS : new GrpcPatience(context);
  }

  @Override
  public State state() {
    return stateOf(context);
  }

  /** Where the caller of {@code context}'s call is now. */
  static State stateOf(Context context) {
    if (context.isCancelled()) {
      return context.cancellationCause() instanceof TimeoutException
          ? State.PAST_DEADLINE
          : State.CANCELLED;
    }
    Deadline deadline = context.getDeadline();
    return deadline != null && deadline.isExpired() ? State.PAST_DEADLINE : State.WAITING;
  }
}
