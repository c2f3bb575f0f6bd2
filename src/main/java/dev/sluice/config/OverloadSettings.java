package dev.sluice.config;

import java.time.Duration;
import java.util.List;

/** How much work a Redis connection may hold, and when the circuit breaker opens. */
public final class OverloadSettings {
  public static final Setting<Integer> REDIS_MAX_QUEUED_HITS =
      Setting.integer(
          "--redis-max-queued-hits",
          "SLUICE_REDIS_MAX_QUEUED_HITS",
          "1024",
          "Hits one Redis connection holds waiting or in flight; past it requests are shed at once");

  public static final Setting<Integer> BREAKER_FAILURE_RATE =
      Setting.integer(
          "--breaker-failure-rate",
          "SLUICE_BREAKER_FAILURE_RATE",
          "50",
          "Percent of failed store calls in the window that opens the circuit breaker");

  public static final Setting<Integer> BREAKER_MINIMUM_CALLS =
      Setting.integer(
          "--breaker-minimum-calls",
          "SLUICE_BREAKER_MINIMUM_CALLS",
          "20",
          "Store calls in the window before the failure rate is judged");

  public static final Setting<Duration> BREAKER_WINDOW =
      Setting.duration(
          "--breaker-window",
          "SLUICE_BREAKER_WINDOW",
          "10s",
          "How far back store calls count towards the failure rate, whole seconds");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(REDIS_MAX_QUEUED_HITS, BREAKER_FAILURE_RATE, BREAKER_MINIMUM_CALLS, BREAKER_WINDOW);

  private OverloadSettings() {}
}
