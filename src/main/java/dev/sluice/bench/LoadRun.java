package dev.sluice.bench;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * What both drivers of one run share: its window (start, measured from, end), the {@code
 * concurrency} in-flight slots, the requests, and sending one call whose outcome goes to {@link
 * Outcomes} when it was sent in the window.
 *
 * <p>Threads: {@link #send} runs on the thread the driver sends from (the closed loop's answering
 * thread, the open loop's event loop, or the caller at the start) and adds no hand-off; each call's
 * listener runs on its channel's transport thread ({@code directExecutor}), or inline in {@link
 * #send} when the call fails before it is started. The slots are a {@link Semaphore}, taken and
 * released from any of those threads.
 */
final class LoadRun {
  private final Outcomes outcomes;
  private final RequestSource requests;
  private final Semaphore inFlight;
  private final int concurrency;
  private final long timeoutNanos;
  private final long startNanos;
  private final long measureStart;
  private final long end;

  /**
   * @param startNanos {@link System#nanoTime()} at which the warmup starts; the requests are built
   *     after it (as many as {@link RequestSource#PREBUILT_LIMIT}), in the warmup's time
   */
  LoadRun(BenchConfig config, long startNanos) {
    this.startNanos = startNanos;
    this.measureStart = startNanos + config.warmup().toNanos();
    this.end = measureStart + config.duration().toNanos();
    this.requests = new RequestSource(config.requests(), config.keys());
    this.timeoutNanos = config.timeout().toNanos();
    this.outcomes = new Outcomes(timeoutNanos);
    this.concurrency = config.concurrency();
    this.inFlight = new Semaphore(concurrency);
  }

  Outcomes outcomes() {
    return outcomes;
  }

  /** {@link System#nanoTime()} of the warmup's start. */
  long startNanos() {
    return startNanos;
  }

  /** {@link System#nanoTime()} from which a request is measured: the end of the warmup. */
  long measureStart() {
    return measureStart;
  }

  /** {@link System#nanoTime()} from which no request is sent. */
  long end() {
    return end;
  }

  /** Takes an in-flight slot, waiting for one. */
  void acquireSlot() throws InterruptedException {
    inFlight.acquire();
  }

  /** Takes an in-flight slot if one is free. */
  boolean tryAcquireSlot() {
    return inFlight.tryAcquire();
  }

  void releaseSlot() {
    inFlight.release();
  }

  /**
   * Waits until every slot is free, i.e. every request sent has ended, and keeps them all.
   *
   * @return false when {@code timeoutNanos} passed first
   */
  boolean awaitAllSlots(long timeoutNanos) throws InterruptedException {
    return inFlight.tryAcquire(concurrency, timeoutNanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Starts one call with {@link ClientCall} itself: the stub's adapters, a stub per deadline and
   * per-send protobuf encoding were a third of the generator's work per request. The call is
   * measured when {@code startNanos} falls in the window.
   *
   * @param startNanos when the request's latency starts: now (closed loop) or its due time
   * @param then run once when the call ends: on the answering thread when answered, through {@code
   *     afterError} when it failed (a call that fails inline must not recurse into the next send)
   */
  void send(Channel channel, long startNanos, Runnable then, Executor afterError) {
    Call call = new Call(startNanos, startNanos - measureStart >= 0, then, afterError);
    if (call.measured) {
      outcomes.sent();
    }
    ClientCall<byte[], Integer> clientCall = null;
    boolean started = false;
    try {
      clientCall =
          channel.newCall(
              RlsWire.SHOULD_RATE_LIMIT,
              CallOptions.DEFAULT.withDeadlineAfter(timeoutNanos, TimeUnit.NANOSECONDS));
      clientCall.start(call, new Metadata());
      started = true;
      clientCall.request(1);
      clientCall.sendMessage(requests.next());
      clientCall.halfClose();
    } catch (RuntimeException e) {
      if (started) {
        clientCall.cancel("the load generator could not send", e); // closes the call
      } else {
        call.onClose(Status.fromThrowable(e), new Metadata());
      }
    }
  }

  /** One request in flight; its outcome is counted only when it was sent in the window. */
  private final class Call extends ClientCall.Listener<Integer> {
    private final long startNanos;
    private final long sentNanos = System.nanoTime();
    private final boolean measured;
    private final Runnable then;
    private final Executor afterError;
    private Integer code;

    Call(long startNanos, boolean measured, Runnable then, Executor afterError) {
      this.startNanos = startNanos;
      this.measured = measured;
      this.then = then;
      this.afterError = afterError;
    }

    @Override
    public void onMessage(Integer message) {
      code = message;
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      if (status.isOk() && code != null) {
        if (measured) {
          outcomes.answered(RlsWire.code(code), startNanos, sentNanos);
        }
        then.run();
        return;
      }
      if (measured) {
        if (status.isOk()) {
          outcomes.failed("INTERNAL", "the server closed the call OK without an answer");
        } else {
          outcomes.failed(status.getCode().name(), String.valueOf(status.getDescription()));
        }
      }
      try {
        afterError.execute(then);
      } catch (RejectedExecutionException rejected) {
        // The run is over and its executor closed: nothing follows any more.
        inFlight.release();
      }
    }
  }
}
