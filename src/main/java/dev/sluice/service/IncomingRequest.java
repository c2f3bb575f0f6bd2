package dev.sluice.service;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.Marshaller;
import io.grpc.StatusRuntimeException;
import java.io.InputStream;

/**
 * A ShouldRateLimit request as it came off the wire: a parsed request, or bytes protobuf refused
 * (most often a domain, key or value that is not valid UTF-8, which proto3 {@code string} fields
 * forbid). grpc-java answers a parse failure inside its own marshaller with UNKNOWN "Application
 * error processing RPC" and logs a stack trace per request; parsing into this type instead lets the
 * service answer INVALID_ARGUMENT and log nothing.
 */
sealed interface IncomingRequest {
  record Parsed(RateLimitRequest request) implements IncomingRequest {}

  /**
   * @param reason protobuf's own words, e.g. "Protocol message had invalid UTF-8."
   */
  record Unparseable(String reason) implements IncomingRequest {}

  /** ShouldRateLimit with the same name and response marshaller, and a request that never fails. */
  static MethodDescriptor<IncomingRequest, ?> method() {
    var original = RateLimitServiceGrpc.getShouldRateLimitMethod();
    return original.toBuilder(
            marshaller(original.getRequestMarshaller()), original.getResponseMarshaller())
        .build();
  }

  private static Marshaller<IncomingRequest> marshaller(Marshaller<RateLimitRequest> protobuf) {
    return new Marshaller<>() {
      @Override
      public InputStream stream(IncomingRequest value) {
        if (value instanceof Parsed parsed) {
          return protobuf.stream(parsed.request());
        }
        throw new IllegalArgumentException("an unparseable request cannot be sent");
      }

      @Override
      public IncomingRequest parse(InputStream stream) {
        try {
          return new Parsed(protobuf.parse(stream));
        } catch (StatusRuntimeException e) {
          return new Unparseable(reasonOf(e));
        }
      }
    };
  }

  /** grpc-java's "Invalid protobuf byte sequence" wraps protobuf's more useful message. */
  private static String reasonOf(StatusRuntimeException e) {
    Throwable cause = e.getCause();
    String message =
        cause != null && cause.getMessage() != null ? cause.getMessage() : e.getMessage();
    return message == null ? "malformed message" : message;
  }
}
