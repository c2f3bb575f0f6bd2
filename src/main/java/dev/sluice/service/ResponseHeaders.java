package dev.sluice.service;

import dev.sluice.config.HeaderConfig;
import dev.sluice.limiter.Code;
import dev.sluice.limiter.CurrentLimit;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.DescriptorDecision;
import dev.sluice.rules.Window;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The {@code RateLimit-Limit/Remaining/Reset} headers, from the most constrained descriptor: the
 * last one over its limit, else the one with the least remaining (first wins ties). None when no
 * descriptor was counted. Envoy adds them to the 429 or to the upstream response. {@code
 * RateLimit-Limit} is the limit's capacity: {@code requests_per_unit}, or a token bucket's {@code
 * burst}. A descriptor with several limits ({@code rate_limits}) lists each as its own quota policy
 * after the current one, as the IETF RateLimit draft writes them: {@code 10, 10;w=1, 1000;w=3600};
 * so does one limit whose window is not one whole unit ({@code 100, 100;w=900}), since Envoy's
 * {@code current_limit.unit} cannot say it.
 */
final class ResponseHeaders {
  private final HeaderConfig config;
  private final Clock clock;

  /**
   * @param clock for the length of the calendar window holding now, a policy's {@code w}
   */
  ResponseHeaders(HeaderConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
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

  /**
   * The current limit, then each policy {@code quota;w=window seconds} when there are several, or
   * when the one window is not a whole unit (the unit Envoy sees does not say it): {@code 100,
   * 100;w=900}. A calendar window's {@code w} is the length of the one holding now.
   */
  private String limitValue(long limit, List<CurrentLimit> policies) {
    if (policies.size() < 2 && (policies.isEmpty() || isOneUnit(policies.get(0)))) {
      return Long.toString(limit);
    }
    StringBuilder value = new StringBuilder().append(limit);
    for (CurrentLimit policy : policies) {
      value
          .append(", ")
          .append(policy.limit().capacity())
          .append(";w=")
          .append(windowSeconds(policy.limit().window()));
    }
    return value.toString();
  }

  private static boolean isOneUnit(CurrentLimit policy) {
    return policy.limit().window() instanceof Window.Fixed fixed && fixed.multiplier() == 1;
  }

  private long windowSeconds(Window window) {
    return window instanceof Window.Fixed fixed
        ? fixed.lengthSeconds()
        : window.lengthMillis(clock.millis()) / 1000;
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
