package dev.sluice.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.sluice.metrics.SluiceMetrics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** {@code GET /metrics}: every metric in the Prometheus text format. */
public final class MetricsHandler implements HttpHandler {
  private final SluiceMetrics metrics;

  public MetricsHandler(SluiceMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream(16 * 1024);
    metrics.writeText(body);
    exchange.getResponseHeaders().set("Content-Type", SluiceMetrics.textContentType());
    exchange.sendResponseHeaders(200, body.size());
    try (OutputStream out = exchange.getResponseBody()) {
      body.writeTo(out);
    }
  }
}
