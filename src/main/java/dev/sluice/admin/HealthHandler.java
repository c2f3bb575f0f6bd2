package dev.sluice.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * {@code GET /healthcheck}: 200 {@code OK} when healthy, 200 {@code DEGRADED} and one line per
 * degradation when healthy but degraded, else 503 with one line per problem (the reference answers
 * 500 with an empty body, which tells an operator nothing).
 */
public final class HealthHandler implements HttpHandler {
  private final Supplier<HealthReport> health;

  public HealthHandler(Supplier<HealthReport> health) {
    this.health = health;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    HealthReport report = health.get();
    String body;
    if (!report.healthy()) {
      body = String.join("\n", report.problems()) + "\n";
    } else if (!report.degraded().isEmpty()) {
      body = "DEGRADED\n" + String.join("\n", report.degraded()) + "\n";
    } else {
      body = "OK\n";
    }
    AdminHttpServer.send(exchange, report.healthy() ? 200 : 503, "text/plain; charset=utf-8", body);
  }
}
