package dev.sluice.admin;

import java.util.List;

/**
 * The service's health and, when unhealthy, what is wrong.
 *
 * @param problems empty when healthy, e.g. {@code ["store: redis unreachable: ..."]}
 */
public record HealthReport(List<String> problems) {
  public HealthReport {
    problems = List.copyOf(problems);
  }

  public boolean healthy() {
    return problems.isEmpty();
  }
}
