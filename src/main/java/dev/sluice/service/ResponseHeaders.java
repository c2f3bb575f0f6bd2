package dev.sluice.service;

import dev.sluice.config.HeaderConfig;
import dev.sluice.limiter.Code;
import dev.sluice.limiter.CurrentLimit;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.DescriptorDecision;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import java.time.Duration;
import java.util.List;

/**
 * The {@code RateLimit-Limit/Remaining/Reset} headers, from the most constrained descriptor: the
 * last one over its limit, else the one with the least remaining (first wins ties). None when no
 * descriptor was counted. Envoy adds them to the 429 or to the upstream response. {@code
 * RateLimit-Limit} is the limit's capacity: {@code requests_per_unit}, or a token bucket's {@code
 * burst}. A descriptor with several limits ({@code rate_limits}) lists each as its own quota policy
 * after the current one, as the IETF RateLimit draft writes them: {@code 10, 10;w=1, 1000;w=3600}.
 */
final class ResponseHeaders {
  private final HeaderConfig config;

  ResponseHeaders(HeaderConfig config) {
    this.config = config;
  }

  List<HeaderValue> of(Decision decision) {
    if (!config.enabled()) {
      return List.of();
    }
    DescriptorDecision chosen = null;
    for (DescriptorDecision status : decision.statuses()) {
      if (status.currentLimit().isEmpty()) {
        continue;
      }
      if (status.code() == Code.OVER_LIMIT) {
        chosen = status;
      } else if (chosen == null
          || (chosen.code() != Code.OVER_LIMIT && status.remaining() < chosen.remaining())) {
        chosen = status;
      }
    }
    if (chosen == null) {
      return List.of();
    }
    // The capacity, not requests_per_unit: a token bucket's burst, so Remaining never exceeds Limit
    // (a full bucket of 5 refilling 2 a second has 4 left after one take, not "4 of 2").
    long limit = chosen.currentLimit().get().limit().capacity();
    long reset = ceilSeconds(chosen.untilReset().orElse(Duration.ZERO));
    return List.of(
        header(config.limitHeader(), limitValue(limit, chosen.policies())),
        header(config.remainingHeader(), chosen.remaining()),
        header(config.resetHeader(), reset));
  }

  /** The current limit, then each policy {@code quota;w=window seconds} when there are several. */
  private static String limitValue(long limit, List<CurrentLimit> policies) {
    if (policies.size() < 2) {
      return Long.toString(limit);
    }
    StringBuilder value = new StringBuilder().append(limit);
    for (CurrentLimit policy : policies) {
      value
          .append(", ")
          .append(policy.limit().capacity())
          .append(";w=")
          .append(policy.limit().unit().seconds());
    }
    return value.toString();
  }

  private static long ceilSeconds(Duration duration) {
    return duration.getSeconds() + (duration.getNano() > 0 ? 1 : 0);
  }

  private static HeaderValue header(String name, long value) {
    return header(name, Long.toString(value));
  }

  private static HeaderValue header(String name, String value) {
    return HeaderValue.newBuilder().setKey(name).setValue(value).build();
  }
}
