package dev.sluice.server;

import dev.sluice.logging.RepeatedLines;
import dev.sluice.metrics.GrpcTransportMetrics;
import dev.sluice.threads.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.LoggerFactory;

/**
 * Where the gRPC ports report what their limits did to clients and what clients broke: each event
 * is counted in {@link GrpcTransportMetrics} and logged through {@link RepeatedLines}, so a client
 * that breaks the protocol on every call costs a line per kind every {@link #INTERVAL}, not one per
 * call. Events come from Sluice's own Netty handlers and from grpc-java's log records ({@link
 * TransportErrorFilter}).
 *
 * <p>Thread-safe: events arrive on the boss and event-loop threads; the flush runs on the
 * scheduler.
 */
public final class TransportReport {
  /** The least time between two lines of one kind. */
  public static final Duration INTERVAL = Duration.ofSeconds(10);

  private final GrpcTransportMetrics metrics;
  private final RepeatedLines lines;

  /**
   * @param clock what the interval between two lines of one kind is measured on
   */
  public TransportReport(GrpcTransportMetrics metrics, Clock clock) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.lines = new RepeatedLines(LoggerFactory.getLogger(TransportReport.class), clock, INTERVAL);
  }

  /**
   * Counts into metrics nobody scrapes, for a gRPC port built outside Sluice's composition root
   * (the bench server's, the admin port's until it is given the exported ones). Not {@link
   * #start}ed: a count of repeated lines is reported with the next line of its kind.
   */
  public static TransportReport unexported() {
    return new TransportReport(GrpcTransportMetrics.unexported(), Clock.systemUTC());
  }

  /**
   * Takes grpc-java's transport errors from the log ({@link TransportErrorFilter}) and reports the
   * counts of repeated lines every {@link #INTERVAL} on {@code scheduler}, until the returned
   * handle is closed (which reports the counts still due).
   */
  public AutoCloseable start(Scheduler scheduler) {
    Runnable uninstall = TransportErrorFilter.install(this);
    Scheduler.Cancellable flushes =
        scheduler.scheduleWithFixedDelay(lines::flush, INTERVAL, INTERVAL);
    return () -> {
      flushes.cancel();
      uninstall.run();
      lines.flush();
    };
  }

  /** {@code limit} refused a call or closed a connection. */
  void limitHit(TransportLimit limit, String detail) {
    if (limit.closesConnection()) {
      metrics.connectionClosed(limit.label());
    } else {
      metrics.callRefused(limit.label());
    }
    lines.warn(limit.line(), detail);
  }

  /** A client's protocol error that no limit names, e.g. a stream it reset or closed early. */
  void protocolError(String kind, String detail) {
    lines.warn(kind, detail);
  }

  void connectionOpened() {
    metrics.connectionOpened();
  }

  void connectionEnded() {
    metrics.connectionEnded();
  }
}
