package dev.sluice.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.HeaderConfig;
import dev.sluice.config.ResponseSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.limiter.Code;
import dev.sluice.limiter.CurrentLimit;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.DescriptorDecision;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.rules.Window;
import dev.sluice.testing.FakeClock;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
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
  /** In February 2024 in Berlin: a calendar month of 29 days. */
  private final FakeClock clock = new FakeClock(Instant.parse("2024-02-10T12:00:00Z"));

  private final ResponseHeaders headers =
      new ResponseHeaders(
          HeaderConfig.from(
              SettingValues.builder().set(ResponseSettings.RESPONSE_HEADERS, true).build()),
          clock);

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

  @Test
  void windowOfSeveralUnits_isNamedAsAPolicyWithItsSeconds() {
    Limit quarter =
        new Limit(
            100, new Window.Fixed(Unit.MINUTE, 15), Algorithm.FIXED_WINDOW, 100, Consistency.EXACT);

    assertThat(of(counted(quarter, 40))).containsEntry("RateLimit-Limit", "100, 100;w=900");
  }

  @Test
  void calendarWindow_isNamedWithTheLengthOfTheOneHoldingNow() {
    Limit month =
        new Limit(
            3,
            new Window.Calendar(Unit.MONTH, ZoneId.of("Europe/Berlin")),
            Algorithm.FIXED_WINDOW,
            3,
            Consistency.EXACT);

    assertThat(of(counted(month, 1))).containsEntry("RateLimit-Limit", "3, 3;w=2505600");
    clock.set(Instant.parse("2024-03-10T12:00:00Z"));
    assertThat(of(counted(month, 1)))
        .as("31 days less the hour lost to summer time")
        .containsEntry("RateLimit-Limit", "3, 3;w=" + (31 * 86_400 - 3_600));
  }
}
