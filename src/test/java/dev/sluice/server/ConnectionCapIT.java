package dev.sluice.server;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Eventually;
import dev.sluice.testing.SluiceJarProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --grpc-max-connections} (set by its variable, {@code SLUICE_GRPC_MAX_CONNECTIONS}): with
 * the cap's worth of connections open, each further one is closed as it arrives and counted, while
 * the open ones keep being answered; once some close, new ones are accepted again. Without the cap
 * (the old code) every connection is accepted.
 */
class ConnectionCapIT {
  private static final int CAP = 20;
  private static final int OVER = 10;
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String METHOD =
      "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit";

  @TempDir Path tmp;

  private SluiceJarProcess sluice;
  private final List<RawHttp2Client> clients = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (RawHttp2Client client : clients) {
      client.close();
    }
    if (sluice != null) {
      sluice.close();
    }
  }

  @Test
  void connectionsOverTheCap_closedAndCounted_openOnesStillAnswered() throws Exception {
    sluice =
        HonestTraffic.startSluice(
            tmp,
            List.of("-Xmx256m"),
            List.of(),
            Map.of("SLUICE_GRPC_MAX_CONNECTIONS", String.valueOf(CAP)));
    for (int i = 0; i < CAP; i++) {
      clients.add(RawHttp2Client.connect(sluice.grpcPort()));
    }
    // The kernel queues finished handshakes in order, and the port accepts them in that order:
    // the connections below come after the ones above.
    for (int i = 0; i < OVER; i++) {
      try (RawHttp2Client over = RawHttp2Client.connect(sluice.grpcPort())) {
        assertThat(over.closedByServer(DEADLINE))
            .as("connection %d over the cap closed", i)
            .isTrue();
      }
    }
    assertThat(sluice.metric("sluice_grpc_connections", "")).as("connections open").isEqualTo(CAP);
    assertThat(sluice.metric("sluice_grpc_connections_closed_total", "reason=\"max_connections\""))
        .as("connections refused for --grpc-max-connections")
        .isEqualTo(OVER);
    for (RawHttp2Client open : clients) {
      assertThat(call(open)).as("a call on a connection within the cap").isEqualTo("grpc-status 0");
    }

    clients.remove(0).close();
    Eventually.await(
        DEADLINE,
        "a connection slot free again",
        () -> sluice.metric("sluice_grpc_connections", "") == CAP - 1);
    RawHttp2Client again = RawHttp2Client.connect(sluice.grpcPort());
    clients.add(again);
    assertThat(call(again))
        .as("a call on a connection made after one closed")
        .isEqualTo("grpc-status 0");
  }

  @Test
  void adminGrpcPort_takesTheSameCap_closedAndCounted() throws Exception {
    int adminPort;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      adminPort = free.getLocalPort();
    }
    int cap = 3;
    sluice =
        HonestTraffic.startSluice(
            tmp,
            List.of("-Xmx256m"),
            List.of("--admin-grpc-port", String.valueOf(adminPort)),
            Map.of("SLUICE_GRPC_MAX_CONNECTIONS", String.valueOf(cap)));
    for (int i = 0; i < cap; i++) {
      clients.add(RawHttp2Client.connect(adminPort));
    }
    try (RawHttp2Client over = RawHttp2Client.connect(adminPort)) {
      assertThat(over.closedByServer(DEADLINE)).as("admin connection over the cap closed").isTrue();
    }
    assertThat(sluice.metric("sluice_grpc_connections_closed_total", "reason=\"max_connections\""))
        .as("admin connections refused for --grpc-max-connections")
        .isEqualTo(1);
    RawHttp2Client rls = RawHttp2Client.connect(sluice.grpcPort());
    clients.add(rls);
    assertThat(call(rls)).as("the RLS port keeps its own cap").isEqualTo("grpc-status 0");
  }

  /** One ShouldRateLimit on {@code client}: how it ended. */
  private static String call(RawHttp2Client client) throws IOException {
    byte[] message = request("honest", descriptor("user", "client")).toByteArray();
    client.writeCalls(1, METHOD, message, Map.of());
    return client.readEnds(1, DEADLINE).values().stream().findFirst().orElse("no answer");
  }
}
