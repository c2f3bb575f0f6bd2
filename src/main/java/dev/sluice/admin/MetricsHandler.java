package dev.sluice.admin;

import dev.sluice.metrics.SluiceMetrics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * {@code GET /metrics}: every metric in the Prometheus text format. Its size is bounded because
 * every label is ({@link SluiceMetrics}: capped series, cut request values).
 */
public final class MetricsHandler implements AdminRoute {
  private final SluiceMetrics metrics;

  public MetricsHandler(SluiceMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public AdminResponse answer(AdminRequest request) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream(64 * 1024);
    metrics.writeText(body);
    return AdminResponse.of(200, SluiceMetrics.textContentType(), body.toByteArray());
  }
}
