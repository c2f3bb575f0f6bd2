package dev.sluice.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stores' own metrics: call latency and errors, requests shed at a full queue, the circuit
 * breaker and the memory store's evictions. Labelled by store name ({@code memory}, {@code redis},
 * {@code redis_per_second}: a handful). Thread-safe.
 */
public final class StoreMetrics {
  private final Histogram latency;
  private final Map<String, DistributionDataPoint> latencyByStore = new ConcurrentHashMap<>();
  private final Counter errors;
  private final Counter shed;
  private final Gauge breakerState;
  private final Counter breakerTransitions;
  private final Counter memoryEvictions;

  StoreMetrics(PrometheusRegistry registry, double[] latencyBuckets) {
    latency =
        Histogram.builder()
            .name("sluice_store_duration_seconds")
            .help("Latency of one store call (one Redis round trip), by store.")
            .labelNames("store")
            .classicOnly()
            .classicUpperBounds(latencyBuckets)
            .withoutExemplars()
            .register(registry);
    errors =
        Counter.builder()
            .name("sluice_store_errors_total")
            .help("Failed store calls.")
            .labelNames("store")
            .withoutExemplars()
            .register(registry);
    shed =
        Counter.builder()
            .name("sluice_store_shed_total")
            .help("Requests shed before reaching the store because its queue was full.")
            .labelNames("store")
            .withoutExemplars()
            .register(registry);
    breakerState =
        Gauge.builder()
            .name("sluice_circuit_breaker_state")
            .help("1 for the store circuit breaker's current state, 0 for the others.")
            .labelNames("store", "state")
            .register(registry);
    breakerTransitions =
        Counter.builder()
            .name("sluice_circuit_breaker_transitions_total")
            .help("Store circuit breaker transitions.")
            .labelNames("store", "to")
            .withoutExemplars()
            .register(registry);
    memoryEvictions =
        Counter.builder()
            .name("sluice_memory_evictions_total")
            .help("Live memory-store counters evicted because --memory-max-counters was reached.")
            .register(registry);
  }

  /** One store call: its latency, and whether it failed. */
  public void call(String store, long nanos, boolean failed) {
    // Looked up by the string itself: labelValues would build and hash a label list per call.
    DistributionDataPoint series = latencyByStore.get(store);
    if (series == null) {
      series = latencyByStore.computeIfAbsent(store, latency::labelValues);
    }
    series.observe(nanos / 1e9);
    if (failed) {
      errors.labelValues(store).inc();
    }
  }

  /** A request shed because the store's queue was full ({@code --redis-max-queued-hits}). */
  public void shed(String store) {
    shed.labelValues(store).inc();
  }

  /**
   * @param states every state the breaker can be in; {@code current} gets 1, the others 0
   */
  public void breakerState(String store, String current, String... states) {
    for (String state : states) {
      breakerState.labelValues(store, state).set(state.equals(current) ? 1 : 0);
    }
  }

  public void breakerTransition(String store, String to) {
    breakerTransitions.labelValues(store, to).inc();
  }

  public void memoryEvicted(long counters) {
    memoryEvictions.inc(counters);
  }
}
