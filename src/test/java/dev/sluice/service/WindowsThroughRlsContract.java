package dev.sluice.service;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.StoreConfig;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.Hammer;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.RateLimit;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code unit_multiplier} and {@code time_zone} end to end: rule files, a real gRPC client, the
 * limiter and a store, driven by a fake service clock. Extended once per store. Fixed windows count
 * on the service clock on both stores; token buckets refill on Redis TIME there, so the bucket's
 * answers here do not depend on real time passing.
 */
abstract class WindowsThroughRlsContract {
  private static final String RULES =
      """
      domain: win
      descriptors:
        - key: quarter
          rate_limit: {unit: minute, unit_multiplier: 15, requests_per_unit: 3}
        - key: six
          rate_limit: {unit: hour, unit_multiplier: 6, requests_per_unit: 1}
        - key: drip
          rate_limit: {unit: minute, unit_multiplier: 30, requests_per_unit: 6, algorithm: token_bucket}
        - key: race
          rate_limit: {unit: minute, unit_multiplier: 15, requests_per_unit: 100}
        - key: plan
          rate_limit: {unit: month, time_zone: Asia/Kolkata, requests_per_unit: 100}
        - key: user
          rate_limits:
            - {unit: minute, unit_multiplier: 15, requests_per_unit: 3}
            - {unit: month, time_zone: Asia/Kolkata, requests_per_unit: 100}
      """
          + calendarRules();

  private final List<RunningSluice> started = new ArrayList<>();

  /** The store every instance of a test counts in. */
  protected abstract StoreConfig store();

  /** A second instance a race is spread over; the memory store cannot share one, so itself. */
  protected abstract boolean instancesShareTheStore();

  /** One rule per calendar unit and zone: {@code calendar=day@Pacific/Kiritimati}. */
  private static String calendarRules() {
    StringBuilder rules = new StringBuilder();
    for (String zone : List.of("Pacific/Kiritimati", "Asia/Kolkata")) {
      for (String unit : List.of("day", "week", "month")) {
        rules.append(
            String.format(
                "  - {key: calendar, value: \"%s@%s\", rate_limit: {unit: %s, time_zone: %s,"
                    + " requests_per_unit: 1}}%n",
                unit, zone, unit, zone));
      }
    }
    return rules.toString();
  }

  private RunningSluice start(FakeClock clock) {
    RunningSluice sluice = RunningSluice.start(RULES, store(), clock);
    started.add(sluice);
    return sluice;
  }

  @AfterEach
  void stop() {
    started.forEach(RunningSluice::close);
  }

  private static DescriptorStatus ask(RunningSluice sluice, RateLimitRequest request) {
    return sluice.rls().shouldRateLimit(request).getStatuses(0);
  }

  private static FakeClock clockAt(String instant) {
    return new FakeClock(Instant.parse(instant));
  }

  @Test
  void fifteenMinutes_resetAtTheEpochAlignedBoundaryAndReportTheUnit() {
    FakeClock clock = clockAt("2024-05-01T10:37:12Z");
    RunningSluice sluice = start(clock);
    RateLimitRequest request = request("win", descriptor("quarter", "q"));
    for (int i = 1; i <= 3; i++) {
      DescriptorStatus status = ask(sluice, request);
      assertThat(status.getCode()).as("hit %d", i).isEqualTo(Code.OK);
      assertThat(status.getDurationUntilReset().getSeconds()).isEqualTo(7 * 60 + 48);
      assertThat(status.getCurrentLimit().getUnit()).isEqualTo(RateLimit.Unit.MINUTE);
      assertThat(status.getCurrentLimit().getRequestsPerUnit()).isEqualTo(3);
    }
    assertThat(ask(sluice, request).getCode()).isEqualTo(Code.OVER_LIMIT);
    clock.advance(Duration.ofMinutes(7).plusSeconds(47));
    assertThat(ask(sluice, request).getCode()).as("10:44:59").isEqualTo(Code.OVER_LIMIT);
    clock.advance(Duration.ofSeconds(1));
    DescriptorStatus fresh = ask(sluice, request);
    assertThat(fresh.getCode()).isEqualTo(Code.OK);
    assertThat(fresh.getDurationUntilReset().getSeconds()).isEqualTo(15 * 60);
  }

  @Test
  void sixHours_resetAtSixInTheMorningUtc() {
    FakeClock clock = clockAt("2024-05-01T05:59:59Z");
    RunningSluice sluice = start(clock);
    RateLimitRequest request = request("win", descriptor("six", "s"));
    assertThat(ask(sluice, request).getDurationUntilReset().getSeconds()).isEqualTo(1);
    assertThat(ask(sluice, request).getCode()).isEqualTo(Code.OVER_LIMIT);
    clock.advance(Duration.ofSeconds(1));
    DescriptorStatus fresh = ask(sluice, request);
    assertThat(fresh.getCode()).isEqualTo(Code.OK);
    assertThat(fresh.getDurationUntilReset().getSeconds()).isEqualTo(6 * 3600);
    assertThat(fresh.getCurrentLimit().getUnit()).isEqualTo(RateLimit.Unit.HOUR);
  }

  @Test
  void tokenBucketSixPerThirtyMinutes_refusesTheSeventhForFiveMinutes() {
    RunningSluice sluice = start(clockAt("2024-05-01T10:37:12Z"));
    RateLimitRequest request = request("win", descriptor("drip", "d"));
    long started = System.nanoTime();
    for (int i = 1; i <= 6; i++) {
      assertThat(ask(sluice, request).getCode()).as("hit %d", i).isEqualTo(Code.OK);
    }
    DescriptorStatus refused = ask(sluice, request);
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertThat(refused.getCode()).isEqualTo(Code.OVER_LIMIT);
    // One token every 5 minutes; on Redis, whose own clock times the bucket, the real time since
    // the first hit has dripped already (no more than the test measured around the seven hits).
    Duration reset =
        Duration.ofSeconds(
            refused.getDurationUntilReset().getSeconds(),
            refused.getDurationUntilReset().getNanos());
    assertThat(reset)
        .isBetween(Duration.ofSeconds(300).minus(took).minusMillis(1), Duration.ofSeconds(300));
  }

  /**
   * Monday 1 April 2024 starts a day, a week and a month: a second before, in a UTC+14 and a
   * half-hour zone, each calendar window has a second left; after, each has its own length.
   */
  @ParameterizedTest(name = "{0} in {1}")
  @CsvSource({
    "day, Pacific/Kiritimati, 86400",
    "week, Pacific/Kiritimati, 604800",
    "month, Pacific/Kiritimati, 2592000",
    "day, Asia/Kolkata, 86400",
    "week, Asia/Kolkata, 604800",
    "month, Asia/Kolkata, 2592000"
  })
  void calendarWindows_resetAtTheNextLocalBoundary(String unit, String zone, long nextSeconds) {
    Instant lastSecond =
        LocalDateTime.parse("2024-03-31T23:59:59").atZone(ZoneId.of(zone)).toInstant();
    FakeClock clock = new FakeClock(lastSecond);
    RunningSluice sluice = start(clock);
    RateLimitRequest request = request("win", descriptor("calendar", unit + "@" + zone));
    DescriptorStatus first = ask(sluice, request);
    assertThat(first.getCode()).isEqualTo(Code.OK);
    assertThat(first.getDurationUntilReset().getSeconds()).isEqualTo(1);
    assertThat(first.getCurrentLimit().getUnit().name()).isEqualToIgnoringCase(unit);
    assertThat(ask(sluice, request).getCode()).isEqualTo(Code.OVER_LIMIT);
    clock.advance(Duration.ofSeconds(1));
    DescriptorStatus fresh = ask(sluice, request);
    assertThat(fresh.getCode()).isEqualTo(Code.OK);
    assertThat(fresh.getDurationUntilReset().getSeconds()).isEqualTo(nextSeconds);
  }

  /** A rate_limits list of a 15-minute and a calendar window, decided as one (charge.lua). */
  @Test
  void rateLimitsList_fifteenMinutesAndACalendarMonth_decideTogether() {
    FakeClock clock = clockAt("2024-05-01T10:37:12Z");
    RunningSluice sluice = start(clock);
    RateLimitRequest request = request("win", descriptor("user", "u"));
    for (int i = 1; i <= 3; i++) {
      assertThat(ask(sluice, request).getCode()).as("hit %d", i).isEqualTo(Code.OK);
    }
    DescriptorStatus refused = ask(sluice, request);
    assertThat(refused.getCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(refused.getCurrentLimit().getUnit()).isEqualTo(RateLimit.Unit.MINUTE);
    assertThat(refused.getDurationUntilReset().getSeconds()).isEqualTo(7 * 60 + 48);
    clock.advance(Duration.ofMinutes(7).plusSeconds(48));
    DescriptorStatus fresh = ask(sluice, request);
    assertThat(fresh.getCode()).isEqualTo(Code.OK);
    assertThat(fresh.getLimitRemaining()).isEqualTo(2);
  }

  /** 32 threads behind one latch, 10 requests each, on a 15-minute and a calendar window. */
  @Test
  void racingThreads_getExactlyTheLimit() throws Exception {
    FakeClock clock = clockAt("2024-05-01T10:37:12Z");
    RunningSluice first = start(clock);
    RunningSluice second = instancesShareTheStore() ? start(clock) : first;
    RunningSluice[] instances = {first, second};
    for (String key : List.of("race", "plan")) {
      RateLimitRequest request = request("win", descriptor(key, "everyone"));
      int allowed =
          Hammer.countAllowed(
              32, 10, t -> () -> ask(instances[t % 2], request).getCode() == Code.OK);
      assertThat(allowed).as(key).isEqualTo(100);
    }
  }
}
