package dev.sluice.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.GrpcLimits;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.testing.FakeClock;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.embedded.EmbeddedChannel;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The connection cap and the stall limit on Netty's embedded channels: accepted connections are
 * channels read by the listening one, time is the embedded event loop's, advanced by hand.
 */
class ConnectionGuardTest {
  private static final int CAP = 2;

  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
  private final ConnectionGuard guard =
      new ConnectionGuard(
          new GrpcLimits(1_000, CAP, 1 << 20, 1_000, 8192),
          new TransportReport(metrics.grpcTransport(), FakeClock.atEpochSecond(1_700_000_000L)));
  private final EmbeddedChannel listening = new EmbeddedChannel(guard.acceptor());

  @Test
  void accept_overTheCap_closedAndCounted_untilOneCloses() throws IOException {
    EmbeddedChannel first = accept();
    EmbeddedChannel second = accept();
    EmbeddedChannel third = accept();

    assertThat(listening.<Channel>readInbound()).isSameAs(first);
    assertThat(listening.<Channel>readInbound()).isSameAs(second);
    assertThat(listening.<Channel>readInbound()).as("passed on to grpc-java").isNull();
    assertThat(third.isOpen()).isFalse();
    assertThat(scrape())
        .contains("sluice_grpc_connections_closed_total{reason=\"max_connections\"} 1.0")
        .contains("sluice_grpc_connections " + CAP + ".0");

    first.close();
    EmbeddedChannel fourth = accept();

    assertThat(listening.<Channel>readInbound()).isSameAs(fourth);
    assertThat(fourth.isOpen()).isTrue();
    assertThat(scrape()).contains("sluice_grpc_connections " + CAP + ".0");
  }

  @Test
  void unwritable_forTheStallLimit_closedAndCounted() throws IOException {
    EmbeddedChannel connection = accept();
    connection.freezeTime();

    unwritable(connection, true);
    connection.advanceTimeBy(ConnectionGuard.STALL_LIMIT.toMillis() - 1, TimeUnit.MILLISECONDS);
    connection.runScheduledPendingTasks();
    assertThat(connection.isOpen()).as("open just before the limit").isTrue();
    connection.advanceTimeBy(1, TimeUnit.MILLISECONDS);
    connection.runScheduledPendingTasks();

    assertThat(connection.isOpen()).isFalse();
    assertThat(scrape())
        .contains("sluice_grpc_connections_closed_total{reason=\"stalled\"} 1.0")
        .contains("sluice_grpc_connections 0.0");
  }

  @Test
  void unwritable_writableAgainInTime_staysOpen() {
    EmbeddedChannel connection = accept();
    connection.freezeTime();

    unwritable(connection, true);
    connection.advanceTimeBy(ConnectionGuard.STALL_LIMIT.toMillis() / 2, TimeUnit.MILLISECONDS);
    unwritable(connection, false);
    connection.advanceTimeBy(ConnectionGuard.STALL_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    connection.runScheduledPendingTasks();

    assertThat(connection.isOpen()).isTrue();
  }

  /** A new connection, read by the listening channel as Netty's accept loop would. */
  private EmbeddedChannel accept() {
    EmbeddedChannel connection = new EmbeddedChannel();
    listening.writeInbound(connection);
    return connection;
  }

  /**
   * Sets writability as a full socket would; Netty tells the pipeline of the change in a task, run
   * here.
   */
  private static void unwritable(EmbeddedChannel connection, boolean unwritable) {
    connection.unsafe().outboundBuffer().setUserDefinedWritability(1, !unwritable);
    connection.runPendingTasks();
    assertThat(connection.isWritable()).isEqualTo(!unwritable);
  }

  private String scrape() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.writeText(out);
    return out.toString(StandardCharsets.UTF_8);
  }
}
