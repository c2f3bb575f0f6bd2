package dev.sluice.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.HeaderConfig;
import dev.sluice.limiter.Code;
import dev.sluice.limiter.CurrentLimit;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.DescriptorDecision;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The {@code RateLimit-*} headers: a token bucket reports its burst as the limit, so {@code
 * RateLimit-Remaining} never exceeds {@code RateLimit-Limit} (issue 13: "Limit: 2, Remaining: 4").
 */
class ResponseHeadersTest {
  private final ResponseHeaders headers =
      new ResponseHeaders(
          new HeaderConfig(true, "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"));

  private static Decision counted(Limit limit, long remaining) {
    DescriptorDecision status =
        new DescriptorDecision(
            Code.OK,
            Optional.of(new CurrentLimit(limit, "")),
            remaining,
            Optional.of(Duration.ofMillis(1500)));
    return new Decision(Code.OK, List.of(status));
  }

  private Map<String, String> of(Decision decision) {
    return headers.of(decision).stream()
        .collect(Collectors.toMap(HeaderValue::getKey, HeaderValue::getValue));
  }

  @Test
  void tokenBucket_limitIsTheBurst_remainingNeverAbove() {
    Limit bucket = new Limit(2, Unit.SECOND, Algorithm.TOKEN_BUCKET, 5);

    Map<String, String> full = of(counted(bucket, 4));

    assertThat(full)
        .containsEntry("RateLimit-Limit", "5")
        .containsEntry("RateLimit-Remaining", "4");
    assertThat(full).containsEntry("RateLimit-Reset", "2");
  }

  @Test
  void fixedWindow_limitIsRequestsPerUnit() {
    Limit fixed = Limit.of(10, Unit.MINUTE, Algorithm.FIXED_WINDOW);

    assertThat(of(counted(fixed, 3)))
        .containsEntry("RateLimit-Limit", "10")
        .containsEntry("RateLimit-Remaining", "3");
  }
}
