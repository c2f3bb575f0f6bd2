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
        RateLimitResponse.newBuilder().setOverallCode(codeOf(decision.overall()));
    if (!headers.isEmpty()) {
      // Only when there are some: even an empty addAll makes the builder a list of its own.
      response.addAllResponseHeadersToAdd(headers);
    }
    List<DescriptorDecision> statuses = decision.statuses();
    for (int i = 0; i < statuses.size(); i++) {
      response.addStatuses(toStatus(statuses.get(i)));
    }
    return response.build();
  }

  private static DescriptorStatus toStatus(DescriptorDecision decision) {
    DescriptorStatus.Builder status =
        DescriptorStatus.newBuilder()
            .setCode(codeOf(decision.code()))
            .setLimitRemaining(uint32(decision.remaining()));
    // isPresent/get, not ifPresent: each lambda captured the builder, an object per descriptor.
    if (decision.currentLimit().isPresent()) {
      status.setCurrentLimit(toRateLimit(decision.currentLimit().get()));
    }
    if (decision.hasReset()) {
      status.setDurationUntilReset(ProtoValues.durationOfMicros(decision.untilResetMicros()));
    }
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
