package dev.sluice.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Envoy's Rate Limit Quota Service on the RLS port.
 *
 * @param enabled whether {@code StreamRateLimitQuotas} is served
 * @param reportInterval the report interval the Envoys are configured with ({@code
 *     reporting_interval}); also how often demands are shared and reloads are pushed, at least 100
 *     ms
 * @param assignmentTtl how long an assignment lasts unless renewed; more than the report interval,
 *     so one late report does not expire it. A bucket not reported for this long is abandoned, and
 *     a demand not refreshed for this long stops counting on the other instances
 * @param maxStreams streams open at once on this instance; one more is refused with
 *     RESOURCE_EXHAUSTED
 * @param maxBucketsPerStream buckets one stream may subscribe; one more ends it with
 *     RESOURCE_EXHAUSTED
 */
public record RlqsConfig(
    boolean enabled,
    Duration reportInterval,
    Duration assignmentTtl,
    int maxStreams,
    int maxBucketsPerStream) {
  public RlqsConfig {
    Objects.requireNonNull(reportInterval, "reportInterval");
    Objects.requireNonNull(assignmentTtl, "assignmentTtl");
    if (reportInterval.compareTo(Duration.ofMillis(100)) < 0) {
      throw new IllegalArgumentException(
          "--rlqs-report-interval must be >= 100ms: " + reportInterval);
    }
    if (assignmentTtl.compareTo(reportInterval) <= 0) {
      throw new IllegalArgumentException(
          "--rlqs-assignment-ttl must be longer than --rlqs-report-interval: "
              + assignmentTtl
              + " <= "
              + reportInterval);
    }
    if (maxStreams < 1) {
      throw new IllegalArgumentException("--rlqs-max-streams must be >= 1: " + maxStreams);
    }
    if (maxBucketsPerStream < 1) {
      throw new IllegalArgumentException(
          "--rlqs-max-buckets-per-stream must be >= 1: " + maxBucketsPerStream);
    }
  }

  /** Every setting at its declared default. */
  public static RlqsConfig defaults() {
    return from(SettingValues.defaults());
  }

  /**
   * From the declared settings.
   *
   * @throws IllegalArgumentException naming a bad value or combination
   */
  public static RlqsConfig from(SettingValues values) {
    return new RlqsConfig(
        values.get(RlqsSettings.RLQS),
        values.get(RlqsSettings.REPORT_INTERVAL),
        values.get(RlqsSettings.ASSIGNMENT_TTL),
        values.get(RlqsSettings.MAX_STREAMS),
        values.get(RlqsSettings.MAX_BUCKETS_PER_STREAM));
  }
}
