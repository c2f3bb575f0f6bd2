package dev.sluice.service;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.HeaderConfig;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.LimiterSettings;
import dev.sluice.config.ResponseSettings;
import dev.sluice.config.RulesConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.SettingValues;
import dev.sluice.rules.Algorithm;
import dev.sluice.testing.AdminClient;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Response headers, global shadow mode and the default algorithm, as Envoy sees them. */
class EnvoyFacingIT {
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: minute, requests_per_unit: 10}
        - key: plan
          rate_limit: {unit: hour, requests_per_unit: 3}
      """;

  /** 2222 s after the epoch, as in the reference's header test: 58 s left in the minute. */
  private final FakeClock clock = FakeClock.atEpochSecond(2_222);

  private RunningSluice start(LimiterConfig limiter, HeaderConfig headers, Algorithm algorithm) {
    ServeConfig config =
        RunningSluice.config(RunningSluice.memoryStore()).toBuilder()
            .rules(new RulesConfig(Path.of("unused"), Duration.ofSeconds(1), algorithm, Set.of()))
            .limiter(limiter)
            .headers(headers)
            .build();
    return RunningSluice.start(RULES, config, clock);
  }

  private static Map<String, String> headers(RateLimitResponse response) {
    return response.getResponseHeadersToAddList().stream()
        .collect(Collectors.toMap(HeaderValue::getKey, HeaderValue::getValue));
  }

  @Test
  void responseHeaders_mostConstrainedDescriptor_withConfiguredNames() {
    HeaderConfig headers =
        HeaderConfig.from(
            SettingValues.builder()
                .set(ResponseSettings.RESPONSE_HEADERS, true)
                .set(ResponseSettings.LIMIT_HEADER, "X-Limit")
                .set(ResponseSettings.REMAINING_HEADER, "X-Remaining")
                .set(ResponseSettings.RESET_HEADER, "X-Reset")
                .build());
    try (RunningSluice sluice = start(LimiterConfig.defaults(), headers, Algorithm.FIXED_WINDOW)) {
      RateLimitResponse first =
          sluice
              .rls()
              .shouldRateLimit(request("api", descriptor("user", "a"), descriptor("plan", "p")));
      assertThat(headers(first))
          .containsExactlyInAnyOrderEntriesOf(
              Map.of("X-Limit", "3", "X-Remaining", "2", "X-Reset", "1378"));
      RateLimitResponse onlyUser =
          sluice.rls().shouldRateLimit(request("api", descriptor("user", "b")));
      assertThat(headers(onlyUser))
          .containsEntry("X-Limit", "10")
          .containsEntry("X-Remaining", "9")
          .containsEntry("X-Reset", "58");
      RateLimitResponse unmatched =
          sluice.rls().shouldRateLimit(request("api", descriptor("other", "x")));
      assertThat(unmatched.getResponseHeadersToAddList()).isEmpty();
    }
  }

  @Test
  void responseHeaders_offByDefault() {
    try (RunningSluice sluice =
        start(LimiterConfig.defaults(), HeaderConfig.off(), Algorithm.FIXED_WINDOW)) {
      assertThat(
              sluice
                  .rls()
                  .shouldRateLimit(request("api", descriptor("user", "a")))
                  .getResponseHeadersToAddList())
          .isEmpty();
    }
  }

  @Test
  void globalShadowMode_overallAlwaysOkStatusesUnchangedAndCounted() {
    LimiterConfig shadow =
        LimiterConfig.from(SettingValues.builder().set(LimiterSettings.SHADOW_MODE, true).build());
    try (RunningSluice sluice = start(shadow, HeaderConfig.off(), Algorithm.FIXED_WINDOW)) {
      RateLimitResponse last = null;
      for (int i = 0; i < 4; i++) {
        last = sluice.rls().shouldRateLimit(request("api", descriptor("plan", "p")));
      }
      assertThat(last.getOverallCode()).isEqualTo(Code.OK);
      assertThat(last.getStatuses(0).getCode()).isEqualTo(Code.OVER_LIMIT);
      assertThat(new AdminClient(sluice.httpPort()).get("/metrics").body())
          .contains("sluice_global_shadow_mode_total 1.0");
    }
  }

  @Test
  void defaultAlgorithm_tokenBucket_appliesToRulesThatNameNone() {
    try (RunningSluice sluice =
        start(LimiterConfig.defaults(), HeaderConfig.off(), Algorithm.TOKEN_BUCKET)) {
      RateLimitResponse response =
          sluice.rls().shouldRateLimit(request("api", descriptor("user", "a")));
      // A full bucket of 10 refilling 10 per minute: one token back every 6 s, full again in 6 s.
      assertThat(response.getStatuses(0).getLimitRemaining()).isEqualTo(9);
      assertThat(response.getStatuses(0).getDurationUntilReset().getSeconds()).isEqualTo(6);
    }
  }
}
