package dev.sluice.service;

import dev.sluice.capture.RequestCapture;
import dev.sluice.config.HeaderConfig;
import dev.sluice.config.RequestLimits;
import dev.sluice.limiter.Answer;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.InvalidRequestException;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.store.Expiry;
import dev.sluice.store.Patience;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoreExpiredException;
import dev.sluice.store.StoreShedException;
import dev.sluice.tracing.DecisionSpan;
import dev.sluice.tracing.Tracing;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.Context;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.context.Scope;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit}, and the one place where
 * failures become gRPC statuses. Answers when the limiter's future completes, so a gRPC thread
 * never waits on the store itself.
 */
public final class RateLimitGrpcService extends RateLimitServiceGrpc.RateLimitServiceImplBase {
  private static final Logger log = LoggerFactory.getLogger(RateLimitGrpcService.class);

  private final RateLimiter limiter;
  private final RequestMapping mapping;
  private final ResponseHeaders headers;
  private final boolean dynamicMetadata;
  private final SluiceMetrics metrics;
  private final Tracing tracing;
  private final RequestCapture capture;

  /** Without tracing. */
  public RateLimitGrpcService(
      RateLimiter limiter, RequestLimits limits, HeaderConfig headers, SluiceMetrics metrics) {
    this(limiter, limits, headers, metrics, Tracing.off());
  }

  public RateLimitGrpcService(
      RateLimiter limiter,
      RequestLimits limits,
      HeaderConfig headers,
      SluiceMetrics metrics,
      Tracing tracing) {
    this(limiter, limits, headers, metrics, tracing, RequestCapture.OFF, Clock.systemUTC());
  }

  /**
   * @param capture handed every valid request before it is decided ({@code --capture-file})
   * @param clock the service clock, for the length of a calendar window in {@code RateLimit-Limit}
   */
  public RateLimitGrpcService(
      RateLimiter limiter,
      RequestLimits limits,
      HeaderConfig headers,
      SluiceMetrics metrics,
      Tracing tracing,
      RequestCapture capture,
      Clock clock) {
    this.limiter = limiter;
    this.mapping = new RequestMapping(limits);
    this.headers = new ResponseHeaders(headers, clock);
    this.dynamicMetadata = headers.dynamicMetadata();
    this.metrics = metrics;
    this.tracing = tracing;
    this.capture = capture;
  }

  /**
   * The generated service, except that the request is parsed by {@link IncomingRequest}: a message
   * protobuf refuses (such as invalid UTF-8 in a string) is answered INVALID_ARGUMENT here instead
   * of UNKNOWN with a stack trace by grpc-java. Same service and method names, same schema for
   * reflection.
   */
  public ServerServiceDefinition definition() {
    ServiceDescriptor generated = RateLimitServiceGrpc.getServiceDescriptor();
    MethodDescriptor<IncomingRequest, ?> method = IncomingRequest.method();
    ServiceDescriptor lenient =
        ServiceDescriptor.newBuilder(generated.getName())
            .setSchemaDescriptor(generated.getSchemaDescriptor())
            .addMethod(method)
            .build();
    @SuppressWarnings("unchecked")
    MethodDescriptor<IncomingRequest, RateLimitResponse> typed =
        (MethodDescriptor<IncomingRequest, RateLimitResponse>) method;
    return ServerServiceDefinition.builder(lenient)
        .addMethod(typed, ServerCalls.asyncUnaryCall(this::shouldRateLimit))
        .build();
  }

  private void shouldRateLimit(
      IncomingRequest incoming, StreamObserver<RateLimitResponse> responses) {
    if (incoming instanceof IncomingRequest.Parsed parsed) {
      shouldRateLimit(parsed.request(), responses);
    } else if (incoming instanceof IncomingRequest.Unparseable bad) {
      metrics.request(Status.Code.INVALID_ARGUMENT.name(), 0);
      responses.onError(
          Status.INVALID_ARGUMENT
              .withDescription("request is not a valid RateLimitRequest: " + bad.reason())
              .asRuntimeException());
    }
  }

  /**
   * Answers one call, unless its caller has already stopped waiting: then nothing is matched or
   * charged ({@code sluice_requests_expired_total}, stage {@code arrival} or {@code cancelled}).
   * Runs on the gRPC thread, whose context is the call's; the answer is written on the thread that
   * completes the decision (a Redis lane), and not at all when the call was cancelled meanwhile.
   */
  @Override
  public void shouldRateLimit(
      RateLimitRequest request, StreamObserver<RateLimitResponse> responses) {
    Patience.State caller = GrpcPatience.stateOf(Context.current());
    if (caller != Patience.State.WAITING) {
      dropAtArrival(caller, responses);
      return;
    }
    long start = System.nanoTime();
    DecisionSpan span = tracing.startDecision(request.getDomain(), request.getDescriptorsCount());
    Answer answer;
    try (Scope scope = span.activate()) {
      answer = answer(request);
    }
    if (answer instanceof Decision decision) {
      // Decided on this thread (the memory store): answer now, without a future or a stage.
      recordDecided(span, decision, start);
      respond(request, decision, responses);
      return;
    }
    CompletableFuture<Decision> decided = answer.future();
    if (decided.isDone() && !decided.isCompletedExceptionally()) {
      // Decided on this thread (the memory store): answer now, without a stage and its lambda.
      Decision decision = decided.join();
      recordDecided(span, decision, start);
      respond(request, decision, responses);
      return;
    }
    decided.whenComplete(
        (decision, failure) -> {
          if (gone(responses)) {
            // Its caller cancelled or its deadline passed while it waited: nobody reads an answer.
            span.failed(Status.Code.CANCELLED.name(), "caller gone");
            metrics.request(Status.Code.CANCELLED.name(), System.nanoTime() - start);
          } else if (failure == null) {
            recordDecided(span, decision, start);
            respond(request, decision, responses);
          } else {
            Status status = statusOf(failure);
            span.failed(status.getCode().name(), status.getDescription());
            metrics.request(status.getCode().name(), System.nanoTime() - start);
            responses.onError(status.asRuntimeException());
          }
        });
  }

  private void dropAtArrival(Patience.State caller, StreamObserver<RateLimitResponse> responses) {
    Expiry stage = caller == Patience.State.CANCELLED ? Expiry.CANCELLED : Expiry.ARRIVAL;
    metrics.requestExpired(stage.label());
    Status status =
        caller == Patience.State.CANCELLED
            ? Status.CANCELLED.withDescription("caller gone before the request was decided")
            : Status.DEADLINE_EXCEEDED.withDescription(
                "deadline passed before the request arrived");
    metrics.request(status.getCode().name(), 0);
    if (!gone(responses)) {
      responses.onError(status.asRuntimeException());
    }
  }

  /** The call was cancelled (by its client, or by gRPC at its deadline): no answer can be sent. */
  private static boolean gone(StreamObserver<RateLimitResponse> responses) {
    return responses instanceof ServerCallStreamObserver<RateLimitResponse> call
        && call.isCancelled();
  }

  private void recordDecided(DecisionSpan span, Decision decision, long start) {
    span.decided(decision);
    metrics.request(decision.overall().name(), System.nanoTime() - start);
  }

  private void respond(
      RateLimitRequest request, Decision decision, StreamObserver<RateLimitResponse> responses) {
    responses.onNext(toResponse(request, decision));
    responses.onCompleted();
  }

  /**
   * Decides a request given in Envoy's form; for the admin {@code /json} endpoint too. The future
   * fails with {@link InvalidRequestException} for a bad request.
   */
  public CompletableFuture<Decision> decide(RateLimitRequest request) {
    return answer(request).future();
  }

  /** {@link #decide}, with the decision itself when it was made on this thread. */
  private Answer answer(RateLimitRequest request) {
    try {
      RateLimitCall call = mapping.toCall(request);
      capture.offer(call);
      return limiter.answer(call);
    } catch (RuntimeException e) {
      return new Answer.Later(CompletableFuture.failedFuture(e));
    }
  }

  /** The response Envoy would get for {@code decision}. */
  public RateLimitResponse toResponse(RateLimitRequest request, Decision decision) {
    RateLimitResponse response = ResponseMapping.toResponse(decision, headers.of(decision));
    if (!dynamicMetadata) {
      return response;
    }
    return response.toBuilder().setDynamicMetadata(DynamicMetadata.of(request, decision)).build();
  }

  /** The gRPC status a failed decision answers with. */
  public static Status statusOf(Throwable failure) {
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    if (cause instanceof InvalidRequestException) {
      return Status.INVALID_ARGUMENT.withDescription(cause.getMessage());
    }
    if (cause instanceof StoreExpiredException) {
      // Dropped unsent because the caller stopped waiting; it gets this only if still listening.
      return Status.DEADLINE_EXCEEDED.withDescription(cause.getMessage());
    }
    if (cause instanceof StoreShedException) {
      // Overload, transient: UNAVAILABLE is what gRPC clients back off and retry on; Envoy treats
      // every error alike (failure_mode_deny). The message starts "shed: store queue full".
      return Status.UNAVAILABLE.withDescription(cause.getMessage());
    }
    if (cause instanceof StoreException) {
      return Status.UNAVAILABLE.withDescription(
          "rate limit store unavailable: " + cause.getMessage());
    }
    log.error("ShouldRateLimit failed unexpectedly", cause);
    return Status.INTERNAL.withDescription("internal error: " + cause);
  }
}
