package dev.sluice.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.limiter.Code;
import dev.sluice.limiter.CurrentLimit;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.DescriptorDecision;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.RateLimit;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The limiter's decision to Envoy's response: codes, uint32 numbers, units, durations. */
class ResponseMappingTest {

  @Test
  void toResponse_unlimited_remainingIsMaxUint32WithoutLimitOrReset() {
    DescriptorStatus status = onlyStatus(DescriptorDecision.UNLIMITED);

    assertThat(status.getCode()).isEqualTo(RateLimitResponse.Code.OK);
    assertThat(Integer.toUnsignedLong(status.getLimitRemaining())).isEqualTo(4_294_967_295L);
    assertThat(status.hasCurrentLimit()).isFalse();
    assertThat(status.hasDurationUntilReset()).isFalse();
  }

  @Test
  void toResponse_notLimited_isAnEmptyOkStatus() {
    assertThat(onlyStatus(DescriptorDecision.NOT_LIMITED))
        .isEqualTo(DescriptorStatus.newBuilder().setCode(RateLimitResponse.Code.OK).build());
  }

  @Test
  void toResponse_counted_carriesNameLimitRemainingAndExactReset() {
    Limit max = Limit.of(4_294_967_295L, Unit.SECOND, Algorithm.FIXED_WINDOW);
    DescriptorDecision decision =
        new DescriptorDecision(
            Code.OK,
            Optional.of(new CurrentLimit(max, "per-ip")),
            4_294_967_294L,
            Optional.of(Duration.ofMillis(1500).plusNanos(1000)));

    DescriptorStatus status = onlyStatus(decision);

    assertThat(status.getCurrentLimit().getName()).isEqualTo("per-ip");
    assertThat(Integer.toUnsignedLong(status.getCurrentLimit().getRequestsPerUnit()))
        .isEqualTo(4_294_967_295L);
    assertThat(status.getCurrentLimit().getUnit()).isEqualTo(RateLimit.Unit.SECOND);
    assertThat(Integer.toUnsignedLong(status.getLimitRemaining())).isEqualTo(4_294_967_294L);
    assertThat(status.getDurationUntilReset().getSeconds()).isEqualTo(1);
    assertThat(status.getDurationUntilReset().getNanos()).isEqualTo(500_001_000);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"SECOND, 1", "MINUTE, 2", "HOUR, 3", "DAY, 4", "MONTH, 5", "YEAR, 6", "WEEK, 7"})
  void toResponse_eachUnit_isEnvoysUnitNumber(Unit unit, int number) {
    DescriptorDecision decision =
        new DescriptorDecision(
            Code.OK,
            Optional.of(new CurrentLimit(Limit.of(1, unit, Algorithm.FIXED_WINDOW), "")),
            0,
            Optional.of(Duration.ofSeconds(1)));

    assertThat(onlyStatus(decision).getCurrentLimit().getUnitValue()).isEqualTo(number);
  }

  @Test
  void toResponse_codes_overallAndPerStatusInOrder() {
    DescriptorDecision over =
        new DescriptorDecision(
            Code.OVER_LIMIT,
            Optional.of(
                new CurrentLimit(Limit.of(0, Unit.MINUTE, Algorithm.TOKEN_BUCKET), "banned")),
            0,
            Optional.of(Duration.ofSeconds(60)));
    Decision decision =
        new Decision(
            Code.OVER_LIMIT,
            List.of(DescriptorDecision.NOT_LIMITED, over, DescriptorDecision.UNLIMITED));

    RateLimitResponse response = ResponseMapping.toResponse(decision, List.of());

    assertThat(response.getOverallCode()).isEqualTo(RateLimitResponse.Code.OVER_LIMIT);
    assertThat(response.getStatusesList())
        .extracting(DescriptorStatus::getCode)
        .containsExactly(
            RateLimitResponse.Code.OK,
            RateLimitResponse.Code.OVER_LIMIT,
            RateLimitResponse.Code.OK);
    assertThat(response.getStatuses(1).getCurrentLimit().getName()).isEqualTo("banned");
  }

  private static DescriptorStatus onlyStatus(DescriptorDecision decision) {
    RateLimitResponse response =
        ResponseMapping.toResponse(new Decision(decision.code(), List.of(decision)), List.of());
    assertThat(response.getStatusesCount()).isEqualTo(1);
    return response.getStatuses(0);
  }
}
