package dev.sluice.cli;

import dev.sluice.config.BreakerConfig;
import dev.sluice.config.RedisConfig;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How Sluice behaves when the store is busy or broken (issue 11.12): how much work a Redis
 * connection may hold before requests are shed, and when the circuit breaker opens. Defaults in
 * {@link BreakerConfig#defaults()} and {@link RedisConfig#DEFAULT_MAX_QUEUED_HITS}.
 */
final class OverloadOptions {
  @Option(
      names = "--redis-max-queued-hits",
      defaultValue = "${env:SLUICE_REDIS_MAX_QUEUED_HITS:-1024}",
      description =
          "Hits one Redis connection holds waiting or in flight; past it requests are shed at once"
              + " (env SLUICE_REDIS_MAX_QUEUED_HITS, default ${DEFAULT-VALUE}).")
  int redisMaxQueuedHits;

  @Option(
      names = "--breaker-failure-rate",
      defaultValue = "${env:SLUICE_BREAKER_FAILURE_RATE:-50}",
      description =
          "Percent of failed store calls in the window that opens the circuit breaker (env"
              + " SLUICE_BREAKER_FAILURE_RATE, default ${DEFAULT-VALUE}).")
  int breakerFailureRate;

  @Option(
      names = "--breaker-minimum-calls",
      defaultValue = "${env:SLUICE_BREAKER_MINIMUM_CALLS:-20}",
      description =
          "Store calls in the window before the failure rate is judged (env"
              + " SLUICE_BREAKER_MINIMUM_CALLS, default ${DEFAULT-VALUE}).")
  int breakerMinimumCalls;

  @Option(
      names = "--breaker-window",
      defaultValue = "${env:SLUICE_BREAKER_WINDOW:-10s}",
      converter = Converters.DurationConverter.class,
      description =
          "How far back store calls count towards the failure rate, whole seconds (env"
              + " SLUICE_BREAKER_WINDOW, default ${DEFAULT-VALUE}).")
  Duration breakerWindow;

  BreakerConfig breaker() {
    return new BreakerConfig(
        breakerFailureRate,
        breakerMinimumCalls,
        breakerWindow,
        BreakerConfig.DEFAULT_PROBE_INTERVAL);
  }
}
