package dev.sluice.admin;

import dev.sluice.limiter.InvalidRequestException;
import dev.sluice.logging.LogText;
import dev.sluice.store.StoreException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where a failed admin call becomes a status: the gRPC code and the HTTP status come
 * from the same row, so both transports always agree.
 *
 * @param message what the caller is told
 */
public record AdminFailure(Status.Code grpc, int http, String message) {
  private static final Logger log = LoggerFactory.getLogger(AdminFailure.class);

  /** The status for {@code failure} (unwrapping completion and execution exceptions). */
  public static AdminFailure of(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof AdminDenied denied) {
      return denied.reason() == AdminDenied.Reason.UNAUTHENTICATED
          ? new AdminFailure(Status.Code.UNAUTHENTICATED, 401, denied.getMessage())
          : new AdminFailure(Status.Code.PERMISSION_DENIED, 403, denied.getMessage());
    }
    if (cause instanceof InvalidRequestException) {
      return new AdminFailure(Status.Code.INVALID_ARGUMENT, 400, cause.getMessage());
    }
    if (cause instanceof StoreException) {
      return new AdminFailure(Status.Code.UNAVAILABLE, 503, "store: " + cause.getMessage());
    }
    if (cause instanceof TimeoutException) {
      return new AdminFailure(Status.Code.UNAVAILABLE, 503, "store did not answer in time");
    }
    log.error("admin call failed unexpectedly", cause);
    return new AdminFailure(Status.Code.INTERNAL, 500, "internal error: " + cause);
  }

  public StatusRuntimeException asGrpc() {
    // The message may quote the request (a parser's complaint): cut, as the HTTP side does.
    return Status.fromCode(grpc).withDescription(LogText.safe(message)).asRuntimeException();
  }
}
