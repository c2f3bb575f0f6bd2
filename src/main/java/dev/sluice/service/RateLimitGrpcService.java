package dev.sluice.service;

import dev.sluice.limiter.Decision;
import dev.sluice.limiter.InvalidRequestException;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.store.StoreException;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit}. Answers when the limiter's
 * future completes, so a gRPC thread never waits on the store itself.
 */
public final class RateLimitGrpcService extends RateLimitServiceGrpc.RateLimitServiceImplBase {
  private static final Logger log = LoggerFactory.getLogger(RateLimitGrpcService.class);

  private final RateLimiter limiter;

  public RateLimitGrpcService(RateLimiter limiter) {
    this.limiter = limiter;
  }

  @Override
  public void shouldRateLimit(
      RateLimitRequest request, StreamObserver<RateLimitResponse> responses) {
    CompletableFuture<Decision> pending;
    try {
      pending = limiter.decide(RequestMapping.toCall(request));
    } catch (RuntimeException e) {
      pending = CompletableFuture.failedFuture(e);
    }
    pending.whenComplete(
        (decision, failure) -> {
          if (failure == null) {
            responses.onNext(ResponseMapping.toResponse(decision));
            responses.onCompleted();
          } else {
            responses.onError(statusOf(failure).asRuntimeException());
          }
        });
  }

  private static Status statusOf(Throwable failure) {
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    if (cause instanceof StoreException) {
      return Status.UNAVAILABLE.withDescription(
          "rate limit store unavailable: " + cause.getMessage());
    }
    if (cause instanceof InvalidRequestException) {
      return Status.INVALID_ARGUMENT.withDescription(cause.getMessage());
    }
    log.error("ShouldRateLimit failed unexpectedly", cause);
    return Status.INTERNAL.withDescription("internal error: " + cause);
  }
}
