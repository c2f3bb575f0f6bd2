package dev.sluice.admin;

import java.util.List;

/**
 * The service's health and, when unhealthy, what is wrong.
 *
 * @param problems empty when healthy, e.g. {@code ["store: redis unreachable: ..."]}
 * @param degraded what still works but less well, while healthy (synced counters that cannot reach
 *     the store decide locally); never fails a health check
 */
public record HealthReport(List<String> problems, List<String> degraded) {
  public HealthReport {
    problems = List.copyOf(problems);
    degraded = List.copyOf(degraded);
  }

  /** Nothing degraded. */
  public HealthReport(List<String> problems) {
    this(problems, List.of());
  }

  public boolean healthy() {
    return problems.isEmpty();
  }
}
