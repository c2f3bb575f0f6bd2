package dev.sluice.service;

import dev.sluice.limiter.Code;
import dev.sluice.limiter.CurrentLimit;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.DescriptorDecision;
import dev.sluice.rules.Limit;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.RateLimit;
import java.util.List;

/** A {@link Decision} to Envoy's {@link RateLimitResponse}. */
final class ResponseMapping {
  private ResponseMapping() {}

  static RateLimitResponse toResponse(Decision decision, List<HeaderValue> headers) {
    RateLimitResponse.Builder response =
        RateLimitResponse.newBuilder()
            .setOverallCode(codeOf(decision.overall()))
            .addAllResponseHeadersToAdd(headers);
    for (DescriptorDecision status : decision.statuses()) {
      response.addStatuses(toStatus(status));
    }
    return response.build();
  }

  private static DescriptorStatus toStatus(DescriptorDecision decision) {
    DescriptorStatus.Builder status =
        DescriptorStatus.newBuilder()
            .setCode(codeOf(decision.code()))
            .setLimitRemaining(uint32(decision.remaining()));
    decision.currentLimit().ifPresent(limit -> status.setCurrentLimit(toRateLimit(limit)));
    decision
        .untilReset()
        .ifPresent(reset -> status.setDurationUntilReset(ProtoValues.duration(reset)));
    return status.build();
  }

  private static RateLimit toRateLimit(CurrentLimit current) {
    Limit limit = current.limit();
    return RateLimit.newBuilder()
        .setName(current.name())
        .setRequestsPerUnit(uint32(limit.requestsPerUnit()))
        .setUnit(RateLimit.Unit.valueOf(limit.unit().name()))
        .build();
  }

  private static RateLimitResponse.Code codeOf(Code code) {
    return code == Code.OVER_LIMIT ? RateLimitResponse.Code.OVER_LIMIT : RateLimitResponse.Code.OK;
  }

  private static int uint32(long value) {
    return ProtoValues.uint32(value);
  }
}
