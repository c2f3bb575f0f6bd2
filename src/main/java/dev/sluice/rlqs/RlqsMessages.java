package dev.sluice.rlqs;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.BucketId;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaResponse.BucketAction;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaResponse.BucketAction.AbandonAction;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaResponse.BucketAction.QuotaAssignmentAction;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaUsageReports;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaUsageReports.BucketQuotaUsage;
import io.envoyproxy.envoy.type.v3.RateLimitStrategy;
import io.envoyproxy.envoy.type.v3.RateLimitStrategy.BlanketRule;
import io.envoyproxy.envoy.type.v3.TokenBucket;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Proto to domain and back for RLQS; the only class here that knows the wire types. Pure. */
final class RlqsMessages {
  private RlqsMessages() {}

  /**
   * Why the first report of a stream cannot start it, or empty when it can: a domain, at least one
   * usage, and in each a bucket map and a {@code time_elapsed} above zero.
   */
  static Optional<String> firstReportProblem(RateLimitQuotaUsageReports reports) {
    if (reports.getDomain().isEmpty()) {
      return Optional.of("the first report must name a domain");
    }
    if (reports.getBucketQuotaUsagesCount() == 0) {
      return Optional.of("the first report must hold at least one bucket_quota_usages");
    }
    for (BucketQuotaUsage usage : reports.getBucketQuotaUsagesList()) {
      Optional<String> problem = usageProblem(usage);
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  /** Why one usage cannot be counted, or empty when it can. */
  static Optional<String> usageProblem(BucketQuotaUsage usage) {
    if (usage.getBucketId().getBucketCount() == 0) {
      return Optional.of("bucket_id must hold at least one entry");
    }
    if (elapsedMillis(usage) <= 0) {
      return Optional.of(
          "time_elapsed must be > 0: "
              + usage.getTimeElapsed().getSeconds()
              + "s "
              + usage.getTimeElapsed().getNanos()
              + "ns");
    }
    return Optional.empty();
  }

  /** {@code time_elapsed} in milliseconds, rounded up so a positive duration is positive. */
  static long elapsedMillis(BucketQuotaUsage usage) {
    com.google.protobuf.Duration elapsed = usage.getTimeElapsed();
    if (elapsed.getSeconds() < 0 || elapsed.getNanos() < 0) {
      return -1;
    }
    return elapsed.getSeconds() * 1000 + (elapsed.getNanos() + 999_999) / 1_000_000;
  }

  static BucketAction assign(Map<String, String> bucket, Assignment assignment, Duration ttl) {
    return BucketAction.newBuilder()
        .setBucketId(BucketId.newBuilder().putAllBucket(bucket))
        .setQuotaAssignmentAction(
            QuotaAssignmentAction.newBuilder()
                .setAssignmentTimeToLive(duration(ttl))
                .setRateLimitStrategy(strategy(assignment)))
        .build();
  }

  static BucketAction abandon(Map<String, String> bucket) {
    return BucketAction.newBuilder()
        .setBucketId(BucketId.newBuilder().putAllBucket(bucket))
        .setAbandonAction(AbandonAction.getDefaultInstance())
        .build();
  }

  static RateLimitStrategy strategy(Assignment assignment) {
    RateLimitStrategy.Builder strategy = RateLimitStrategy.newBuilder();
    if (assignment instanceof Assignment.AllowAll) {
      return strategy.setBlanketRule(BlanketRule.ALLOW_ALL).build();
    }
    if (assignment instanceof Assignment.DenyAll) {
      return strategy.setBlanketRule(BlanketRule.DENY_ALL).build();
    }
    Assignment.Tokens tokens = (Assignment.Tokens) assignment;
    // uint32 fields: values up to 2^32 - 1 travel as the int with the same bits.
    return strategy
        .setTokenBucket(
            TokenBucket.newBuilder()
                .setMaxTokens((int) tokens.maxTokens())
                .setTokensPerFill(UInt32Value.of((int) tokens.tokensPerFill()))
                .setFillInterval(duration(tokens.fillInterval())))
        .build();
  }

  private static com.google.protobuf.Duration duration(Duration duration) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(duration.getSeconds())
        .setNanos(duration.getNano())
        .build();
  }
}
