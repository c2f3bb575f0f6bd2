package dev.sluice.service;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.descriptorBuilder;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.UInt64Value;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor.RateLimitOverride;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.RateLimit;
import io.envoyproxy.envoy.type.v3.RateLimitUnit;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every answer of the contract, through a real gRPC server and a real gRPC client. */
class ShouldRateLimitIT {
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: minute, requests_per_unit: 5, name: per-user}
        - key: plan
          value: free
          rate_limit: {unit: hour, requests_per_unit: 2}
        - key: internal
          rate_limit: {unlimited: true}
        - key: health
        - key: shadow
          shadow_mode: true
          rate_limit: {unit: minute, requests_per_unit: 1}
        - key: banned
          rate_limit: {unit: minute, requests_per_unit: 0, name: banned}
        - key: vip
          rate_limit:
            unit: minute
            requests_per_unit: 2
            replaces: [{name: banned}]
        - key: bucket
          rate_limit: {unit: minute, requests_per_unit: 60, algorithm: token_bucket, burst: 3}
        - key: rolling
          rate_limit: {unit: minute, requests_per_unit: 4, algorithm: sliding_window}
      """;

  /** 12 seconds into a minute. */
  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L - 8);

  private final RunningSluice sluice = RunningSluice.withRules(RULES, clock);

  @AfterEach
  void stop() {
    sluice.close();
  }

  private RateLimitResponse call(RateLimitRequest request) {
    return sluice.rls().shouldRateLimit(request);
  }

  @Test
  void counted_limitFive_fifthOkWithZeroRemainingSixthOverLimit() {
    RateLimitRequest request = request("api", descriptor("user", "alice"));
    for (int i = 1; i <= 5; i++) {
      RateLimitResponse response = call(request);
      assertThat(response.getOverallCode()).as("hit %d", i).isEqualTo(Code.OK);
      DescriptorStatus status = response.getStatuses(0);
      assertThat(status.getLimitRemaining()).isEqualTo(5 - i);
      assertThat(status.getCurrentLimit())
          .isEqualTo(
              RateLimit.newBuilder()
                  .setRequestsPerUnit(5)
                  .setUnit(RateLimit.Unit.MINUTE)
                  .setName("per-user")
                  .build());
      assertThat(status.getDurationUntilReset().getSeconds()).isEqualTo(48);
    }
    RateLimitResponse sixth = call(request);
    assertThat(sixth.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(sixth.getStatuses(0).getCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(sixth.getStatuses(0).getLimitRemaining()).isZero();
  }

  @Test
  void keyOnlyRule_eachValueHasItsOwnCounter() {
    for (int i = 0; i < 5; i++) {
      call(request("api", descriptor("user", "alice")));
    }
    assertThat(call(request("api", descriptor("user", "bob"))).getOverallCode()).isEqualTo(Code.OK);
  }

  @Test
  void notLimited_unknownDomainNoMatchAndNodeWithoutLimit_okWithoutCurrentLimit() {
    RateLimitResponse unknownDomain = call(request("nope", descriptor("user", "alice")));
    RateLimitResponse mixed =
        call(
            request(
                "api",
                descriptor("missing", "x"),
                descriptor("health", "check"),
                descriptor("plan", "paid")));
    for (RateLimitResponse response : new RateLimitResponse[] {unknownDomain, mixed}) {
      assertThat(response.getOverallCode()).isEqualTo(Code.OK);
      for (DescriptorStatus status : response.getStatusesList()) {
        assertThat(status.getCode()).isEqualTo(Code.OK);
        assertThat(status.hasCurrentLimit()).isFalse();
        assertThat(status.getLimitRemaining()).isZero();
        assertThat(status.hasDurationUntilReset()).isFalse();
      }
    }
    assertThat(mixed.getStatusesCount()).isEqualTo(3);
  }

  @Test
  void unlimited_answersMaxUint32Remaining() {
    DescriptorStatus status = call(request("api", descriptor("internal", "x"))).getStatuses(0);
    assertThat(status.getCode()).isEqualTo(Code.OK);
    assertThat(status.hasCurrentLimit()).isFalse();
    assertThat(Integer.toUnsignedLong(status.getLimitRemaining())).isEqualTo(4_294_967_295L);
  }

  @Test
  void shadowMode_overTheLimit_reportsOkWithZeroRemaining() {
    call(request("api", descriptor("shadow", "x")));
    RateLimitResponse response = call(request("api", descriptor("shadow", "x")));
    assertThat(response.getOverallCode()).isEqualTo(Code.OK);
    assertThat(response.getStatuses(0).getCode()).isEqualTo(Code.OK);
    assertThat(response.getStatuses(0).getLimitRemaining()).isZero();
    assertThat(response.getStatuses(0).hasCurrentLimit()).isTrue();
  }

  @Test
  void replaces_replacedRuleIsNotCountedAndTheReplacingOneDecides() {
    assertThat(call(request("api", descriptor("banned", "x"))).getOverallCode())
        .isEqualTo(Code.OVER_LIMIT);
    RateLimitRequest both = request("api", descriptor("banned", "x"), descriptor("vip", "x"));
    RateLimitResponse first = call(both);
    assertThat(first.getOverallCode()).isEqualTo(Code.OK);
    assertThat(first.getStatuses(0).hasCurrentLimit()).isFalse();
    assertThat(first.getStatuses(1).getLimitRemaining()).isEqualTo(1);
    call(both);
    RateLimitResponse third = call(both);
    assertThat(third.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(third.getStatuses(0).getCode()).isEqualTo(Code.OK);
    assertThat(third.getStatuses(1).getCode()).isEqualTo(Code.OVER_LIMIT);
  }

  @Test
  void overallCode_overLimitWhenAnyDescriptorIsOver_statusesInRequestOrder() {
    call(request("api", descriptor("plan", "free")));
    call(request("api", descriptor("plan", "free")));
    RateLimitResponse response =
        call(request("api", descriptor("user", "carol"), descriptor("plan", "free")));
    assertThat(response.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(response.getStatusesList())
        .extracting(DescriptorStatus::getCode)
        .containsExactly(Code.OK, Code.OVER_LIMIT);
    assertThat(response.getStatuses(1).getCurrentLimit().getUnit()).isEqualTo(RateLimit.Unit.HOUR);
  }

  @Test
  void hitsAddend_requestLevelCountsThatManyAndDescriptorZeroOnlyChecks() {
    RateLimitRequest three =
        request("api", descriptor("user", "dave")).toBuilder().setHitsAddend(3).build();
    assertThat(call(three).getStatuses(0).getLimitRemaining()).isEqualTo(2);
    RateLimitRequest checkOnly =
        request("api", descriptorBuilder("user", "dave").setHitsAddend(UInt64Value.of(0)).build())
            .toBuilder()
            .setHitsAddend(3)
            .build();
    for (int i = 0; i < 3; i++) {
      assertThat(call(checkOnly).getStatuses(0).getLimitRemaining()).isEqualTo(2);
    }
    RateLimitRequest two =
        request("api", descriptorBuilder("user", "dave").setHitsAddend(UInt64Value.of(2)).build());
    assertThat(call(two).getStatuses(0).getLimitRemaining()).isZero();
    assertThat(call(two).getOverallCode()).isEqualTo(Code.OVER_LIMIT);
  }

  @Test
  void override_replacesTheRuleLimitInAKnownDomainOnly() {
    RateLimitOverride perSecondTwo =
        RateLimitOverride.newBuilder().setRequestsPerUnit(2).setUnit(RateLimitUnit.SECOND).build();
    RateLimitRequest request =
        request("api", descriptorBuilder("user", "erin").setLimit(perSecondTwo).build());
    DescriptorStatus status = call(request).getStatuses(0);
    assertThat(status.getCurrentLimit().getRequestsPerUnit()).isEqualTo(2);
    assertThat(status.getCurrentLimit().getUnit()).isEqualTo(RateLimit.Unit.SECOND);
    assertThat(status.getCurrentLimit().getName()).isEmpty();
    assertThat(status.getLimitRemaining()).isEqualTo(1);
    call(request);
    assertThat(call(request).getOverallCode()).isEqualTo(Code.OVER_LIMIT);

    RateLimitRequest unknownDomain =
        request("other", descriptorBuilder("user", "erin").setLimit(perSecondTwo).build());
    assertThat(call(unknownDomain).getStatuses(0).hasCurrentLimit()).isFalse();
  }

  @Test
  void tokenBucket_allowsTheBurstThenRefuses() {
    RateLimitRequest request = request("api", descriptor("bucket", "k"));
    for (int i = 1; i <= 3; i++) {
      assertThat(call(request).getStatuses(0).getLimitRemaining()).isEqualTo(3 - i);
    }
    DescriptorStatus refused = call(request).getStatuses(0);
    assertThat(refused.getCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(refused.getDurationUntilReset().getSeconds()).isEqualTo(1);
  }

  @Test
  void slidingWindow_statusFieldsFromTheEstimate() {
    RateLimitRequest request = request("api", descriptor("rolling", "k"));
    for (int i = 1; i <= 4; i++) {
      DescriptorStatus status = call(request).getStatuses(0);
      assertThat(status.getCode()).as("hit %d", i).isEqualTo(Code.OK);
      assertThat(status.getLimitRemaining()).isEqualTo(4 - i);
      assertThat(status.getDurationUntilReset().getSeconds())
          .as("to the minute's end")
          .isEqualTo(48);
      assertThat(status.getCurrentLimit())
          .isEqualTo(
              RateLimit.newBuilder().setRequestsPerUnit(4).setUnit(RateLimit.Unit.MINUTE).build());
    }
    DescriptorStatus refused = call(request).getStatuses(0);
    assertThat(refused.getCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(refused.getLimitRemaining()).isZero();
    // 48 s to the minute's end, then 4 × 0.75 + 1 <= 4 after 15 s more: capped at one window.
    assertThat(refused.getDurationUntilReset().getSeconds()).isEqualTo(60);
    clock.advance(java.time.Duration.ofSeconds(48 + 14));
    assertThat(call(request).getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    clock.advance(java.time.Duration.ofSeconds(1));
    DescriptorStatus rolled = call(request).getStatuses(0);
    assertThat(rolled.getCode()).isEqualTo(Code.OK);
    assertThat(rolled.getLimitRemaining()).as("floor(4 - 4 × 0.75 - 1)").isZero();
    assertThat(rolled.getDurationUntilReset().getSeconds()).isEqualTo(45);
  }

  @Test
  void invalidRequests_answerInvalidArgumentWithAClearMessage() {
    assertInvalid(request("", descriptor("user", "x")), "rate limit domain must not be empty");
    assertInvalid(request("api"), "rate limit descriptor list must not be empty");
    RateLimitOverride unknownUnit =
        RateLimitOverride.newBuilder().setRequestsPerUnit(1).setUnit(RateLimitUnit.UNKNOWN).build();
    assertInvalid(
        request("api", descriptorBuilder("user", "x").setLimit(unknownUnit).build()),
        "unknown unit 0");
    RateLimitOverride unitNine =
        RateLimitOverride.newBuilder().setRequestsPerUnit(1).setUnitValue(9).build();
    assertInvalid(
        request("api", descriptorBuilder("user", "x").setLimit(unitNine).build()),
        "unknown unit 9");
    // The service is still up after the bad requests.
    assertThat(call(request("api", descriptor("user", "x"))).getOverallCode()).isEqualTo(Code.OK);
  }

  private void assertInvalid(RateLimitRequest request, String message) {
    assertThatThrownBy(() -> call(request))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription()).contains(message);
            });
  }

  @Test
  void health_isServingForAllAndForTheRateLimitService() {
    HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(sluice.channel());
    assertThat(health.check(HealthCheckRequest.getDefaultInstance()).getStatus())
        .isEqualTo(ServingStatus.SERVING);
    assertThat(
            health
                .check(
                    HealthCheckRequest.newBuilder()
                        .setService("envoy.service.ratelimit.v3.RateLimitService")
                        .build())
                .getStatus())
        .isEqualTo(ServingStatus.SERVING);
  }
}
