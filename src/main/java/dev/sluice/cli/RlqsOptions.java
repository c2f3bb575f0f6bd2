package dev.sluice.cli;

import dev.sluice.config.RlqsConfig;
import java.time.Duration;
import picocli.CommandLine.Option;

/** Rate Limit Quota Service flags ({@code --rlqs-*}). */
final class RlqsOptions {
  @Option(
      names = "--rlqs",
      arity = "0..1",
      defaultValue = "${env:SLUICE_RLQS:-true}",
      description =
          "Serve Envoy's Rate Limit Quota Service (StreamRateLimitQuotas) on the gRPC port (env"
              + " SLUICE_RLQS, default ${DEFAULT-VALUE}).")
  boolean enabled;

  @Option(
      names = "--rlqs-report-interval",
      defaultValue = "${env:SLUICE_RLQS_REPORT_INTERVAL:-1s}",
      converter = Converters.DurationConverter.class,
      description =
          "The Envoys' reporting_interval; how often demands are shared and reloads pushed (env"
              + " SLUICE_RLQS_REPORT_INTERVAL, default ${DEFAULT-VALUE}).")
  Duration reportInterval;

  @Option(
      names = "--rlqs-assignment-ttl",
      defaultValue = "${env:SLUICE_RLQS_ASSIGNMENT_TTL:-3s}",
      converter = Converters.DurationConverter.class,
      description =
          "How long an assignment lasts unless renewed, longer than the report interval (env"
              + " SLUICE_RLQS_ASSIGNMENT_TTL, default ${DEFAULT-VALUE}).")
  Duration assignmentTtl;

  @Option(
      names = "--rlqs-max-streams",
      defaultValue = "${env:SLUICE_RLQS_MAX_STREAMS:-10000}",
      description =
          "RLQS streams open at once; one more is refused with RESOURCE_EXHAUSTED (env"
              + " SLUICE_RLQS_MAX_STREAMS, default ${DEFAULT-VALUE}).")
  int maxStreams;

  @Option(
      names = "--rlqs-max-buckets-per-stream",
      defaultValue = "${env:SLUICE_RLQS_MAX_BUCKETS_PER_STREAM:-1000}",
      description =
          "Buckets one RLQS stream may subscribe; one more ends it with RESOURCE_EXHAUSTED (env"
              + " SLUICE_RLQS_MAX_BUCKETS_PER_STREAM, default ${DEFAULT-VALUE}).")
  int maxBucketsPerStream;

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  RlqsConfig toConfig() {
    return new RlqsConfig(enabled, reportInterval, assignmentTtl, maxStreams, maxBucketsPerStream);
  }
}
