package dev.sluice.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The metrics of the synced and split consistency modes. Labels are fixed words ({@code outcome},
 * {@code reason}), never counter keys. Thread-safe.
 */
public final class ConsistencyMetrics {
  private final Counter syncs;
  private final Gauge unsyncedHits;
  private final Gauge syncedCounters;
  private final Gauge knownGlobalHits;
  private final Counter droppedHits;
  private final Counter overflow;
  private final Gauge splitInstances;
  private final Counter heartbeats;

  ConsistencyMetrics(PrometheusRegistry registry) {
    syncs =
        Counter.builder()
            .name("sluice_sync_total")
            .help("Synced-consistency pushes to the shared store, by outcome (ok or failed).")
            .labelNames("outcome")
            .register(registry);
    unsyncedHits =
        Gauge.builder()
            .name("sluice_sync_unsynced_hits")
            .help("Hits counted locally and not yet pushed (the local view), after the last sync.")
            .register(registry);
    syncedCounters =
        Gauge.builder()
            .name("sluice_sync_counters")
            .help("Synced counters held locally (open windows, and ended ones not yet pushed).")
            .register(registry);
    knownGlobalHits =
        Gauge.builder()
            .name("sluice_sync_known_global_hits")
            .help("Sum of the global counts the last sync read back, over the counters held.")
            .register(registry);
    droppedHits =
        Counter.builder()
            .name("sluice_sync_dropped_hits_total")
            .help(
                "Unsynced hits given up: their window ended while the store failed (window_ended),"
                    + " or the store was closed failing (shutdown).")
            .labelNames("reason")
            .register(registry);
    overflow =
        Counter.builder()
            .name("sluice_sync_overflow_total")
            .help("Synced hits counted exactly because --sync-max-counters counters were held.")
            .register(registry);
    splitInstances =
        Gauge.builder()
            .name("sluice_split_instances")
            .help("Instances a split limit is divided by: live ones, or --instances.")
            .register(registry);
    heartbeats =
        Counter.builder()
            .name("sluice_split_heartbeats_total")
            .help("Split-consistency heartbeats, by outcome (ok or failed).")
            .labelNames("outcome")
            .register(registry);
  }

  public void synced(boolean ok) {
    syncs.labelValues(ok ? "ok" : "failed").inc();
  }

  /** The local state after a sync. */
  public void held(long counters, long unsynced, long knownGlobal) {
    syncedCounters.set(counters);
    unsyncedHits.set(unsynced);
    knownGlobalHits.set(knownGlobal);
  }

  public void dropped(String reason, long hits) {
    droppedHits.labelValues(reason).inc(hits);
  }

  public void overflowed() {
    overflow.inc();
  }

  public void splitInstances(long instances) {
    splitInstances.set(instances);
  }

  public void heartbeat(boolean ok) {
    heartbeats.labelValues(ok ? "ok" : "failed").inc();
  }
}
