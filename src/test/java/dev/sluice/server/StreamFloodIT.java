package dev.sluice.server;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
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
 * One HTTP/2 connection that announces a zero window and never reads, opening stream after stream
 * with a real {@code ShouldRateLimit}, against the packaged jar at a 256 MB heap: each response
 * stays queued forever, so without a cap every stream's state piles up until the heap is gone (the
 * old outcome: OutOfMemoryError in the event loops after ~150,000 streams, health dead). The
 * attacker reconnects whenever it is closed, until it has opened 150,000 streams. Meanwhile an
 * honest client must keep getting correct decisions and {@code /healthcheck} must keep answering;
 * every flooding connection must be closed by the server; the log must stay short.
 */
class StreamFloodIT {
  private static final int STREAMS = 150_000;

  /**
   * Streams written to one connection before it counts as never closed: the whole flood, which the
   * old code did not survive, and far more than the sockets' buffers take after the server closed
   * it (~20,000 here).
   */
  private static final int STREAMS_PER_CONNECTION = STREAMS;

  private static final int BATCH = 500;
  private static final Duration ATTACK_DEADLINE = Duration.ofMinutes(2);
  private static final String METHOD =
      "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit";

  /** Far above what a handful of summary lines needs; the old code logged millions. */
  private static final long MAX_LOG_LINES = 100;

  @TempDir Path tmp;

  private SluiceJarProcess sluice;

  @AfterEach
  void stop() throws InterruptedException {
    if (sluice != null) {
      sluice.close();
    }
  }

  @Test
  void zeroWindowStreamFlood_neverReads_closedWhileOthersAreServed() throws Exception {
    sluice =
        HonestTraffic.startSluice(
            tmp, List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"), List.of(), Map.of());
    long linesBefore = sluice.lines();
    ExecutorService attacker = Executors.newSingleThreadExecutor();
    Attack attack = new Attack(sluice.grpcPort());
    try (HonestTraffic honest = new HonestTraffic(sluice).start()) {
      awaitFirstAnswers(honest);
      long decisionsBefore = honest.decisions();
      long healthBefore = honest.healthChecks();
      Future<?> flood = attacker.submit(attack::run);
      try {
        flood.get(ATTACK_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        attack.abort();
        throw new AssertionError("the flood did not end within " + ATTACK_DEADLINE, e);
      }
      long decisionsDuring = honest.decisions() - decisionsBefore;
      long healthDuring = honest.healthChecks() - healthBefore;
      assertThat(honest.stop()).as("honest calls that failed during the flood").isEmpty();
      assertThat(decisionsDuring).as("honest decisions during the flood").isPositive();
      assertThat(healthDuring).as("/healthcheck answers during the flood").isPositive();
    } finally {
      attacker.shutdownNow();
    }

    assertThat(sluice.isAlive()).as("alive after the flood:\n%s", sluice.output()).isTrue();
    assertThat(sluice.linesWith("OutOfMemoryError")).as("OutOfMemoryError lines").isZero();
    assertThat(attack.connections).as("flooding connections").isPositive();
    assertThat(attack.closedByServer)
        .as("flooding connections the server closed (of %d)", attack.connections)
        .isEqualTo(attack.connections);
    assertThat(sluice.get("/healthcheck").statusCode()).isEqualTo(200);
    assertThat(sluice.metric("sluice_grpc_refused_total", "reason=\"max_concurrent_calls\""))
        .as("calls refused for --grpc-max-concurrent-calls-per-connection")
        .isPositive();
    assertThat(sluice.metricTotal("sluice_grpc_connections_closed_total"))
        .as("connections closed, all reasons")
        .isGreaterThanOrEqualTo(attack.closedByServer);
    assertThat(sluice.lines() - linesBefore)
        .as("lines logged during the flood:\n%s", sluice.output())
        .isLessThanOrEqualTo(MAX_LOG_LINES);
  }

  /**
   * The cap's other side: HTTP/2 clients assume 100 concurrent streams until they have read the
   * server's SETTINGS (Envoy's nghttp2 and oghttp2 codecs, h2load, Go's client), and Netty closes a
   * connection whose refused stream then sends its DATA. So with the default cap, 100 calls written
   * in one go right after the preface, before a byte of the server's is read or its SETTINGS
   * acknowledged, must all be answered and none refused. A default under 100 fails here.
   */
  @Test
  void honestClientsFirstBurst_ofTheStreamsHttp2ClientsAssumeBeforeSettings_allAnswered()
      throws Exception {
    sluice = HonestTraffic.startSluice(tmp, List.of(), List.of(), Map.of());
    int burst = 100;
    byte[] message = request("honest", descriptor("user", "early")).toByteArray();
    Map<Integer, String> ends;
    try (RawHttp2Client client = RawHttp2Client.connect(sluice.grpcPort())) {
      client.writeCalls(burst, METHOD, message, Map.of());
      ends = client.readEnds(burst, Duration.ofSeconds(30));
    }
    assertThat(ends).as("how the %d calls ended", burst).hasSize(burst);
    assertThat(ends.values()).as("how the %d calls ended", burst).containsOnly("grpc-status 0");
    assertThat(sluice.metric("sluice_grpc_refused_total", "reason=\"max_concurrent_calls\""))
        .as("calls refused for --grpc-max-concurrent-calls-per-connection")
        .isZero();
  }

  private static void awaitFirstAnswers(HonestTraffic honest) {
    dev.sluice.testing.Eventually.await(
        Duration.ofSeconds(30),
        "the honest client's first answers",
        () -> honest.decisions() > 0 && honest.healthChecks() > 0);
  }

  /**
   * Opens connections one after another, each flooded until the server closes it, until {@link
   * #STREAMS} streams were opened in all; stops at a connection that takes {@link
   * #STREAMS_PER_CONNECTION} without being closed. Runs on one thread; the counts are read after it
   * ends.
   */
  private static final class Attack {
    private final int port;
    private final byte[] message = request("honest", descriptor("user", "attacker")).toByteArray();
    private volatile RawHttp2Client current;
    private volatile boolean aborted;
    int connections;
    int closedByServer;
    int streams;

    Attack(int port) {
      this.port = port;
    }

    void run() {
      while (streams < STREAMS && !aborted) {
        try {
          current = RawHttp2Client.connectWithZeroWindow(port);
        } catch (IOException e) {
          return; // the port is gone: the assertions on the process say why
        }
        connections++;
        if (!floodUntilClosed(current)) {
          return;
        }
      }
    }

    /** True when the server closed the connection. */
    private boolean floodUntilClosed(RawHttp2Client client) {
      try (client) {
        while (client.streamsOpened() < STREAMS_PER_CONNECTION) {
          client.writeCalls(BATCH, METHOD, message, Map.of());
          streams += BATCH;
        }
        return false;
      } catch (IOException closed) {
        if (!aborted) {
          closedByServer++;
        }
        return !aborted;
      }
    }

    void abort() throws IOException {
      aborted = true;
      RawHttp2Client client = current;
      if (client != null) {
        client.close();
      }
    }
  }
}
