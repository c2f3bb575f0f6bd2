package dev.sluice.capture;

import dev.sluice.limiter.RateLimitCall;

/**
 * Where the request path hands each valid request for capture. Called on a gRPC thread (or an
 * admin-http thread for {@code /json}); an implementation must be thread-safe, must never block and
 * must never throw.
 */
public interface RequestCapture extends AutoCloseable {
  /** Capture off: nothing is sampled, nothing is kept. */
  RequestCapture OFF =
      new RequestCapture() {
        @Override
        public void offer(RateLimitCall call) {}

        @Override
        public void close() {}
      };

  /** Maybe captures {@code call} (sampled); returns at once whatever happens. */
  void offer(RateLimitCall call);

  @Override
  void close();
}
