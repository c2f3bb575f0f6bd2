package dev.sluice.refstats;

import dev.sluice.config.AdminHttpConfig;
import dev.sluice.config.ReferenceMetricsConfig;
import dev.sluice.metrics.StatsMirror;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The reference's Prometheus endpoint as the composition root sees it: off, or its stats (the
 * mirror {@code SluiceMetrics} tells) and their listener, started once. Off is an object, so the
 * root never asks whether it is on.
 */
public sealed interface ReferenceMetrics permits ReferenceMetrics.Off, ReferenceMetrics.On {
  /**
   * Off, or on with its mapper read and checked now (before anything starts).
   *
   * @throws MapperException when the mapper file has a problem, naming it and its line
   * @throws UncheckedIOException when the mapper file cannot be read
   */
  static ReferenceMetrics of(ReferenceMetricsConfig config) {
    if (!config.enabled()) {
      return Off.OFF;
    }
    ReferenceStats stats =
        ReferenceStats.create(
            config.mapper(), config.responseTimeInMillis(), new PrometheusRegistry());
    return new On(config, stats);
  }

  /** What {@code SluiceMetrics} tells every event it records. */
  StatsMirror mirror();

  /**
   * Starts the listener.
   *
   * @return what stops it; empty when off
   * @throws UncheckedIOException naming the address when it cannot be bound
   */
  Optional<AutoCloseable> start(AdminHttpConfig limits);

  /** The listener's port once started; empty when off. */
  OptionalInt port();

  /** No endpoint: {@code sluice_*} on the admin port only. */
  enum Off implements ReferenceMetrics {
    OFF;

    @Override
    public StatsMirror mirror() {
      return StatsMirror.NONE;
    }

    @Override
    public Optional<AutoCloseable> start(AdminHttpConfig limits) {
      return Optional.empty();
    }

    @Override
    public OptionalInt port() {
      return OptionalInt.empty();
    }
  }

  /** The endpoint; {@link #start} is called once, by the thread that starts Sluice. */
  final class On implements ReferenceMetrics {
    private final ReferenceMetricsConfig config;
    private final ReferenceStats stats;
    private volatile ReferenceMetricsServer server;

    On(ReferenceMetricsConfig config, ReferenceStats stats) {
      this.config = config;
      this.stats = stats;
    }

    @Override
    public StatsMirror mirror() {
      return stats;
    }

    @Override
    public Optional<AutoCloseable> start(AdminHttpConfig limits) {
      server =
          ReferenceMetricsServer.start(
              config.address().orElseThrow(), config.path(), stats, limits);
      return Optional.of(server);
    }

    @Override
    public OptionalInt port() {
      ReferenceMetricsServer started = server;
      return started == null ? OptionalInt.empty() : OptionalInt.of(started.port());
    }
  }
}
