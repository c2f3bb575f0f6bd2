package dev.sluice.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * What the gRPC ports' limits did to clients: calls refused and connections closed, each by the
 * limit that acted ({@code reason}: a fixed word), and the connections open now. Thread-safe.
 */
public final class GrpcTransportMetrics {
  private final Counter refused;
  private final Counter closed;
  private final Gauge connections;

  /** On its own registry, which nobody scrapes: for gRPC ports whose counts are not exported. */
  public static GrpcTransportMetrics unexported() {
    return new GrpcTransportMetrics(new PrometheusRegistry());
  }

  GrpcTransportMetrics(PrometheusRegistry registry) {
    refused =
        Counter.builder()
            .name("sluice_grpc_refused_total")
            .help(
                "gRPC calls refused by a transport limit, by reason: max_concurrent_calls,"
                    + " metadata_size.")
            .labelNames("reason")
            .withoutExemplars()
            .register(registry);
    closed =
        Counter.builder()
            .name("sluice_grpc_connections_closed_total")
            .help(
                "gRPC connections the server refused or closed, by reason: max_connections,"
                    + " max_queued_bytes, stalled, resets, control_frames, metadata_size,"
                    + " protocol_error.")
            .labelNames("reason")
            .withoutExemplars()
            .register(registry);
    connections =
        Gauge.builder()
            .name("sluice_grpc_connections")
            .help("gRPC connections open now (refused ones are never counted).")
            .register(registry);
  }

  /**
   * @param reason a fixed word naming the limit
   */
  public void callRefused(String reason) {
    refused.labelValues(reason).inc();
  }

  /**
   * @param reason a fixed word naming the limit
   */
  public void connectionClosed(String reason) {
    closed.labelValues(reason).inc();
  }

  public void connectionOpened() {
    connections.inc();
  }

  public void connectionEnded() {
    connections.dec();
  }
}
