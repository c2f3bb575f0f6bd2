package dev.sluice.server;

import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service whose calls run on a pool although the server runs calls on the event loop ({@code
 * directExecutor}): for health and reflection, next to a ShouldRateLimit that never blocks.
 *
 * <p>grpc-java's own per-call choice ({@code ServerBuilder.callExecutor}) makes every call, those
 * that stay on the event loop too, go through a queue and an atomic hand-over per callback; this
 * costs only the calls of the wrapped service. Each call's callbacks are queued in arrival order on
 * the event loop and drained on the pool, one at a time ({@link SynchronizationContext}), so the
 * handler sees them in order and never two at once, as with any executor.
 */
final class PooledService {
  private static final Logger log = LoggerFactory.getLogger(PooledService.class);

  private PooledService() {}

  /** {@code service} with every method's calls run on {@code pool}. */
  static ServerServiceDefinition on(Executor pool, ServerServiceDefinition service) {
    ServerServiceDefinition.Builder pooled =
        ServerServiceDefinition.builder(service.getServiceDescriptor());
    for (ServerMethodDefinition<?, ?> method : service.getMethods()) {
      pooled.addMethod(pooledMethod(pool, method));
    }
    return pooled.build();
  }

  private static <Q, R> ServerMethodDefinition<Q, R> pooledMethod(
      Executor pool, ServerMethodDefinition<Q, R> method) {
    return ServerMethodDefinition.create(
        method.getMethodDescriptor(), new Handler<>(pool, method.getServerCallHandler()));
  }

  private record Handler<Q, R>(Executor pool, ServerCallHandler<Q, R> handler)
      implements ServerCallHandler<Q, R> {
    @Override
    public ServerCall.Listener<Q> startCall(ServerCall<Q, R> call, Metadata headers) {
      Listener<Q> listener = new Listener<>(pool, call);
      listener.run(() -> listener.delegate = handler.startCall(call, headers));
      return listener;
    }
  }

  /** Forwards each callback, in order, to the listener the handler returned, on the pool. */
  private static final class Listener<Q> extends ServerCall.Listener<Q> {
    private final Executor pool;
    // The call's context (deadline, cancellation, the server reflection reads), as on the event
    // loop.
    private final Context context = Context.current();
    private final SynchronizationContext serial;
    // Written and read only by tasks of `serial`, which run one at a time and in order.
    private ServerCall.Listener<Q> delegate;

    Listener(Executor pool, ServerCall<Q, ?> call) {
      this.pool = pool;
      // What grpc-java does with a callback that throws: the call ends, it does not hang.
      this.serial =
          new SynchronizationContext(
              (thread, failure) -> {
                log.warn(
                    "gRPC call {} failed", call.getMethodDescriptor().getFullMethodName(), failure);
                try {
                  call.close(Status.fromThrowable(failure), new Metadata());
                } catch (RuntimeException alreadyClosed) {
                  log.debug("closing the failed call", alreadyClosed);
                }
              });
    }

    void run(Runnable task) {
      serial.executeLater(context.wrap(task)); // queued here, in arrival order
      pool.execute(serial::drain);
    }

    @Override
    public void onMessage(Q message) {
      run(() -> delegate.onMessage(message));
    }

    @Override
    public void onHalfClose() {
      run(() -> delegate.onHalfClose());
    }

    @Override
    public void onCancel() {
      run(() -> delegate.onCancel());
    }

    @Override
    public void onComplete() {
      run(() -> delegate.onComplete());
    }

    @Override
    public void onReady() {
      run(() -> delegate.onReady());
    }
  }
}
