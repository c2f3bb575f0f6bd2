package dev.sluice.service;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.HeaderConfig;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.ResponseSettings;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.SettingValues;
import dev.sluice.config.StoreConfig;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.RateLimit.Unit;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Several limits on one descriptor and {@code charge_denied: false} through the real gRPC server,
 * on the memory store and on a private redis-server: every status field and the RateLimit headers.
 * Fixed windows count on the service clock, here a {@link FakeClock}, on both stores.
 */
class SeveralLimitsIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limits:
            - {unit: second, requests_per_unit: 2, name: burst}
            - {unit: minute, requests_per_unit: 3}
        - key: strict
          charge_denied: false
          rate_limit: {unit: minute, requests_per_unit: 2}
        - key: blocked
          rate_limit: {unit: minute, requests_per_unit: 0}
      """;

  /** Less than a per-second counter lives on Redis (its one-second window, no jitter). */
  private static final Duration PER_SECOND_TTL = Duration.ofMillis(900);

  /** 12 seconds into a minute. */
  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L - 8);

  /** Redis is shared by the tests: each uses values of its own. */
  private final String unique = UUID.randomUUID().toString();

  private RunningSluice start(String store) {
    StoreConfig stores =
        store.equals("redis") ? RunningSluice.redisStore(redis.uri()) : RunningSluice.memoryStore();
    ServeConfig config =
        RunningSluice.config(stores).toBuilder()
            .limiter(LimiterConfig.defaults())
            .headers(
                HeaderConfig.from(
                    SettingValues.builder().set(ResponseSettings.RESPONSE_HEADERS, true).build()))
            .build();
    return RunningSluice.start(RULES, config, clock);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"memory", "redis"})
  void rateLimits_statusFieldsFollowTheGoverningLimit(String store) {
    try (RunningSluice sluice = start(store)) {
      RateLimitRequest request;
      RateLimitResponse first;
      RateLimitResponse third;
      // Redis expires the per-second counter a second of real time after its first hit, whatever
      // the fake clock says: three hits that took that long are repeated on a fresh key.
      for (int attempt = 0; ; attempt++) {
        request = request("api", descriptor("user", unique + "-" + attempt));
        long started = System.nanoTime();
        first = sluice.rls().shouldRateLimit(request);
        sluice.rls().shouldRateLimit(request);
        third = sluice.rls().shouldRateLimit(request);
        if (System.nanoTime() - started < PER_SECOND_TTL.toNanos() || attempt == 2) {
          break;
        }
      }
      assertThat(first.getOverallCode()).isEqualTo(Code.OK);
      // 1 of 2 per second left (0.5) is closer to running out than 2 of 3 per minute.
      assertStatus(first.getStatuses(0), Code.OK, "burst", Unit.SECOND, 1, 1);
      assertThat(header(first, "RateLimit-Limit")).isEqualTo("2, 2;w=1, 3;w=60");
      assertThat(header(first, "RateLimit-Remaining")).isEqualTo("1");
      assertThat(third.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
      assertStatus(third.getStatuses(0), Code.OVER_LIMIT, "burst", Unit.SECOND, 0, 1);

      clock.advance(Duration.ofSeconds(1));
      RateLimitResponse fourth = sluice.rls().shouldRateLimit(request);
      assertThat(fourth.getOverallCode()).as("the refused hit charged no limit").isEqualTo(Code.OK);
      assertStatus(fourth.getStatuses(0), Code.OK, "", Unit.MINUTE, 0, 47);

      RateLimitResponse fifth = sluice.rls().shouldRateLimit(request);
      assertStatus(fifth.getStatuses(0), Code.OVER_LIMIT, "", Unit.MINUTE, 0, 47);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"memory", "redis"})
  void chargeDeniedFalse_requestRefusedElsewhere_chargesNothing(String store) {
    try (RunningSluice sluice = start(store)) {
      RateLimitRequest refused =
          request("api", descriptor("strict", unique), descriptor("blocked", unique));
      for (int i = 0; i < 3; i++) {
        RateLimitResponse response = sluice.rls().shouldRateLimit(refused);
        assertThat(response.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
        assertThat(response.getStatuses(0).getCode()).isEqualTo(Code.OK);
        assertThat(response.getStatuses(0).getLimitRemaining()).as("not charged").isEqualTo(2);
      }
      RateLimitRequest alone = request("api", descriptor("strict", unique));
      assertThat(sluice.rls().shouldRateLimit(alone).getStatuses(0).getLimitRemaining())
          .isEqualTo(1);
      assertThat(sluice.rls().shouldRateLimit(alone).getOverallCode()).isEqualTo(Code.OK);
      RateLimitResponse over = sluice.rls().shouldRateLimit(alone);
      assertThat(over.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
      assertThat(over.getStatuses(0).getDurationUntilReset().getSeconds()).isEqualTo(48);
    }
  }

  private static void assertStatus(
      DescriptorStatus status,
      Code code,
      String name,
      Unit unit,
      long remaining,
      long resetSeconds) {
    assertThat(status.getCode()).isEqualTo(code);
    assertThat(status.getCurrentLimit().getName()).isEqualTo(name);
    assertThat(status.getCurrentLimit().getUnit()).isEqualTo(unit);
    assertThat(status.getLimitRemaining()).isEqualTo(remaining);
    assertThat(status.getDurationUntilReset().getSeconds()).isEqualTo(resetSeconds);
  }

  private static String header(RateLimitResponse response, String name) {
    return response.getResponseHeadersToAddList().stream()
        .filter(h -> h.getKey().equals(name))
        .map(HeaderValue::getValue)
        .findFirst()
        .orElseThrow();
  }
}
