package dev.sluice.config;

import java.time.Duration;
import java.util.List;

/** Envoy's Rate Limit Quota Service on the RLS port ({@code --rlqs-*}). */
public final class RlqsSettings {
  public static final Setting<Boolean> RLQS =
      Setting.bool(
          "--rlqs",
          "SLUICE_RLQS",
          true,
          "Serve Envoy's Rate Limit Quota Service (StreamRateLimitQuotas) on the gRPC port");

  public static final Setting<Duration> REPORT_INTERVAL =
      Setting.duration(
          "--rlqs-report-interval",
          "SLUICE_RLQS_REPORT_INTERVAL",
          "1s",
          "The Envoys' reporting_interval; how often demands are shared and reloads pushed");

  public static final Setting<Duration> ASSIGNMENT_TTL =
      Setting.duration(
          "--rlqs-assignment-ttl",
          "SLUICE_RLQS_ASSIGNMENT_TTL",
          "3s",
          "How long an assignment lasts unless renewed, longer than the report interval");

  public static final Setting<Integer> MAX_STREAMS =
      Setting.integer(
          "--rlqs-max-streams",
          "SLUICE_RLQS_MAX_STREAMS",
          "10000",
          "RLQS streams open at once; one more is refused with RESOURCE_EXHAUSTED");

  public static final Setting<Integer> MAX_BUCKETS_PER_STREAM =
      Setting.integer(
          "--rlqs-max-buckets-per-stream",
          "SLUICE_RLQS_MAX_BUCKETS_PER_STREAM",
          "1000",
          "Buckets one RLQS stream may subscribe; one more ends it with RESOURCE_EXHAUSTED");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(RLQS, REPORT_INTERVAL, ASSIGNMENT_TTL, MAX_STREAMS, MAX_BUCKETS_PER_STREAM);

  private RlqsSettings() {}
}
