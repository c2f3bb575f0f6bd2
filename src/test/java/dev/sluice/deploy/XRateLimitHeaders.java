package dev.sluice.deploy;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import java.util.Optional;

/**
 * The {@code x-ratelimit-*} headers Envoy derives from a Sluice answer with {@code
 * enable_x_ratelimit_headers: DRAFT_VERSION_03}, after Envoy's {@code ratelimit_headers.cc}: of the
 * statuses with a {@code current_limit}, the one with the smallest {@code limit_remaining} (the
 * first on ties) gives {@code remaining} and {@code reset}; {@code limit} is its requests per unit
 * followed by {@code , <n>;w=<window seconds>[;name="<name>"]} for each of those statuses, in
 * request order (a unit Envoy does not map, such as WEEK, adds no item). No such status: no
 * headers.
 */
record XRateLimitHeaders(String limit, long remaining, long resetSeconds) {

  static Optional<XRateLimitHeaders> of(RateLimitResponse response) {
    DescriptorStatus lowest = null;
    StringBuilder policies = new StringBuilder();
    for (DescriptorStatus status : response.getStatusesList()) {
      if (!status.hasCurrentLimit()) {
        continue;
      }
      if (lowest == null
          || Integer.compareUnsigned(status.getLimitRemaining(), lowest.getLimitRemaining()) < 0) {
        lowest = status;
      }
      long window = windowSeconds(status.getCurrentLimit().getUnit());
      if (window > 0) {
        policies.append(", ").append(status.getCurrentLimit().getRequestsPerUnit());
        policies.append(";w=").append(window);
        if (!status.getCurrentLimit().getName().isEmpty()) {
          policies.append(";name=\"").append(status.getCurrentLimit().getName()).append('"');
        }
      }
    }
    if (lowest == null) {
      return Optional.empty();
    }
    return Optional.of(
        new XRateLimitHeaders(
            Integer.toUnsignedString(lowest.getCurrentLimit().getRequestsPerUnit()) + policies,
            Integer.toUnsignedLong(lowest.getLimitRemaining()),
            lowest.getDurationUntilReset().getSeconds()));
  }

  private static long windowSeconds(RateLimitResponse.RateLimit.Unit unit) {
    return switch (unit) {
      case SECOND -> 1;
      case MINUTE -> 60;
      case HOUR -> 3600;
      case DAY -> 86_400;
      case MONTH -> 30L * 86_400;
      case YEAR -> 365L * 86_400;
      default -> 0;
    };
  }
}
