package dev.sluice.limiter;

/** The answer for a descriptor or a whole request, as in Envoy's {@code RateLimitResponse.Code}. */
public enum Code {
  OK,
  OVER_LIMIT
}
