package dev.sluice.admin;

import java.util.function.Supplier;

/**
 * {@code GET /healthcheck}: 200 {@code OK} when healthy, 200 {@code DEGRADED} and one line per
 * degradation when healthy but degraded, else 503 with one line per problem (the reference answers
 * 500 with an empty body, which tells an operator nothing). Never blocks: the server answers it on
 * its I/O threads, so it never waits behind slower routes.
 */
public final class HealthHandler implements AdminRoute {
  private final Supplier<HealthReport> health;

  public HealthHandler(Supplier<HealthReport> health) {
    this.health = health;
  }

  @Override
  public AdminResponse answer(AdminRequest request) {
    HealthReport report = health.get();
    String body;
    if (!report.healthy()) {
      body = String.join("\n", report.problems()) + "\n";
    } else if (!report.degraded().isEmpty()) {
      body = "DEGRADED\n" + String.join("\n", report.degraded()) + "\n";
    } else {
      body = "OK\n";
    }
    return AdminResponse.text(report.healthy() ? 200 : 503, body);
  }
}
