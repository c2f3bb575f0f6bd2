package dev.sluice.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.SluiceJarProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two floods on one connection that each make the server write without end, against the packaged
 * jar: SETTINGS frames from a client that never reads (each needs an acknowledgement, which piles
 * up in the server) and the HTTP/2 "rapid reset" (streams opened and cancelled at once). Each
 * connection must be closed by the server and counted under its limit, while an honest client and
 * {@code /healthcheck} keep their answers.
 */
class ConnectionFloodsIT {
  private static final int BATCH = 1_000;
  private static final String METHOD =
      "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit";

  /** How long a flood may run before its connection counts as never closed. */
  private static final Duration DEADLINE = Duration.ofMinutes(2);

  /** Frames or streams written before the connection counts as never closed. */
  private static final int MAX_FRAMES = 2_000_000;

  @TempDir Path tmp;

  private SluiceJarProcess sluice;

  @AfterEach
  void stop() throws InterruptedException {
    if (sluice != null) {
      sluice.close();
    }
  }

  @Test
  void settingsFlood_neverReads_closedOverMaxQueuedBytes() throws Exception {
    start(Map.of("SLUICE_GRPC_MAX_QUEUED_BYTES", "131072"));
    boolean closed;
    try (HonestTraffic honest = new HonestTraffic(sluice).start();
        RawHttp2Client client = RawHttp2Client.connectWithSmallReceiveBuffer(sluice.grpcPort())) {
      closed = floodUntilClosed(client, () -> client.writeSettingsFrames(BATCH));
      assertThat(honest.stop()).as("honest calls that failed meanwhile").isEmpty();
    }

    assertThat(closed).as("the flooding connection closed by the server").isTrue();
    assertThat(sluice.metric("sluice_grpc_connections_closed_total", "reason=\"max_queued_bytes\""))
        .as("connections closed for --grpc-max-queued-bytes")
        .isEqualTo(1);
  }

  @Test
  void rapidReset_closedOverMaxResets() throws Exception {
    start(Map.of());
    boolean closed;
    try (HonestTraffic honest = new HonestTraffic(sluice).start();
        RawHttp2Client client = RawHttp2Client.connect(sluice.grpcPort())) {
      closed = floodUntilClosed(client, () -> client.writeResetCalls(BATCH, METHOD));
      assertThat(honest.stop()).as("honest calls that failed meanwhile").isEmpty();
    }

    assertThat(closed).as("the flooding connection closed by the server").isTrue();
    assertThat(sluice.metric("sluice_grpc_connections_closed_total", "reason=\"resets\""))
        .as("connections closed for --grpc-max-resets-per-second")
        .isEqualTo(1);
  }

  private void start(Map<String, String> env) throws IOException {
    sluice = HonestTraffic.startSluice(tmp, List.of("-Xmx256m"), List.of(), env);
  }

  /** One batch of the flood; throws once the server has closed the connection. */
  @FunctionalInterface
  private interface Batch {
    void write() throws IOException;
  }

  /**
   * Writes batches on another thread until one fails (the server closed the connection: true),
   * {@link #MAX_FRAMES} were written, or {@link #DEADLINE} passed; then the client is closed, which
   * also ends a write blocked on a full socket.
   */
  private static boolean floodUntilClosed(RawHttp2Client client, Batch batch) throws Exception {
    ExecutorService writer = Executors.newSingleThreadExecutor();
    Future<Boolean> flood =
        writer.submit(
            () -> {
              for (int written = 0; written < MAX_FRAMES; written += BATCH) {
                try {
                  batch.write();
                } catch (IOException closed) {
                  return true;
                }
              }
              return false;
            });
    try {
      return flood.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException stillOpen) {
      return false;
    } finally {
      client.close();
      writer.shutdownNow();
    }
  }
}
