package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.admin.AdminHttpServer.Lane;
import dev.sluice.config.AdminHttpConfig;
import dev.sluice.testing.AdminClient;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.RawHttp;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The admin HTTP server's own rules, with small limits, on a loopback port. */
class AdminHttpServerTest {
  private static final AdminHttpConfig SMALL =
      new AdminHttpConfig(Duration.ofSeconds(2), Duration.ofMillis(500), 4, 1);
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final AdminRoute OK = request -> AdminResponse.text(200, "OK\n");

  private final List<Socket> sockets = new ArrayList<>();
  private AdminHttpServer server;

  @AfterEach
  void stop() throws IOException {
    for (Socket socket : sockets) {
      socket.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private int start(AdminHttpServer configured) {
    server = configured.start();
    return server.port();
  }

  private static AdminHttpServer server() {
    return new AdminHttpServer(new InetSocketAddress("127.0.0.1", 0), SMALL);
  }

  @Test
  void route_throwingAnError_isAnswered500() throws IOException {
    int port =
        start(
            server()
                .handle(
                    "/boom",
                    AdminGate.OPEN,
                    Lane.HANDLERS,
                    request -> {
                      throw new OutOfMemoryError("a test's");
                    }));
    var answer = new AdminClient(port).get("/boom");
    assertThat(answer.statusCode()).isEqualTo(500);
    assertThat(answer.body()).isEqualTo("internal error: java.lang.OutOfMemoryError\n");
  }

  @Test
  void routes_longestPathWins_unknownPathIs404() {
    int port =
        start(
            server()
                .handle("/ui", AdminGate.OPEN, Lane.IO, request -> AdminResponse.text(200, "page"))
                .handle(
                    "/ui/data",
                    AdminGate.OPEN,
                    Lane.IO,
                    request -> AdminResponse.text(200, "data")));
    AdminClient client = new AdminClient(port);
    assertThat(client.get("/ui").body()).isEqualTo("page");
    assertThat(client.get("/ui/data").body()).isEqualTo("data");
    assertThat(client.get("/uix").statusCode()).isEqualTo(404);
  }

  @Test
  void gate_refusing_answersBeforeTheBodyArrives() throws IOException {
    AdminGate refuseAll = request -> Optional.of(AdminResponse.text(401, "no\n"));
    int port = start(server().handle("/post", refuseAll, Lane.HANDLERS, OK));
    String answer =
        RawHttp.exchange(
            port, "POST /post HTTP/1.1\r\nHost: t\r\nContent-Length: 2000000\r\n\r\n", WAIT);
    assertThat(answer).startsWith("HTTP/1.1 401");
  }

  @Test
  void body_announcedOverTheLimit_is413WithoutReadingIt() throws IOException {
    int port = start(server().handle("/post", AdminGate.OPEN, Lane.HANDLERS, OK));
    String answer =
        RawHttp.exchange(
            port,
            "POST /post HTTP/1.1\r\nHost: t\r\nContent-Length: "
                + (AdminHttpServer.MAX_BODY_BYTES + 1)
                + "\r\n\r\n",
            WAIT);
    assertThat(answer).startsWith("HTTP/1.1 413");
  }

  @Test
  void body_notInWithinTheBodyTimeout_is408() throws IOException {
    int port = start(server().handle("/post", AdminGate.OPEN, Lane.HANDLERS, OK));
    String answer =
        RawHttp.exchange(
            port, "POST /post HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n1", WAIT);
    assertThat(answer).startsWith("HTTP/1.1 408");
  }

  @Test
  void headers_notInWithinTheHeaderTimeout_connectionIsClosed() throws IOException {
    int port = start(server().handle("/healthcheck", AdminGate.OPEN, Lane.IO, OK));
    assertThat(RawHttp.exchange(port, "GET /healthcheck HTTP/1.1\r\nHost: t\r\n", WAIT))
        .isEqualTo("closed");
  }

  @Test
  void connections_overTheBound_closeTheOldestStalledOne_andTheProbeIsAnswered()
      throws IOException {
    AdminHttpConfig roomy = new AdminHttpConfig(Duration.ofMinutes(1), SMALL.bodyTimeout(), 4, 1);
    int port =
        start(
            new AdminHttpServer(new InetSocketAddress("127.0.0.1", 0), roomy)
                .handle("/healthcheck", AdminGate.OPEN, Lane.IO, OK));
    for (int i = 0; i < 4; i++) {
      Socket stalled = new Socket("127.0.0.1", port);
      stalled.getOutputStream().write('G');
      sockets.add(stalled);
    }
    assertThat(new AdminClient(port).get("/healthcheck").statusCode()).isEqualTo(200);
    // Which one is oldest is the server's view: connections are opened on several I/O threads.
    Eventually.await(WAIT, "a stalled connection to be closed", this::anyStalledClosed);
  }

  private boolean anyStalledClosed() throws IOException {
    for (Socket stalled : sockets) {
      stalled.setSoTimeout(50);
      try {
        if (RawHttp.read(stalled.getInputStream()).equals("closed")) {
          return true;
        }
      } catch (SocketTimeoutException stillOpen) {
        // not this one
      } catch (IOException reset) {
        return true;
      }
    }
    return false;
  }

  @Test
  void ioLane_answersWhileEveryHandlerThreadIsBlocked() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch blocked = new CountDownLatch(1);
    AdminRoute block =
        request -> {
          blocked.countDown();
          release.await(30, TimeUnit.SECONDS);
          return AdminResponse.text(200, "late\n");
        };
    int port =
        start(
            server()
                .handle("/slow", AdminGate.OPEN, Lane.HANDLERS, block)
                .handle("/healthcheck", AdminGate.OPEN, Lane.IO, OK));
    AdminClient client = new AdminClient(port);
    var slow = java.util.concurrent.CompletableFuture.supplyAsync(() -> client.get("/slow"));
    assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(client.get("/healthcheck").statusCode()).isEqualTo(200);
    release.countDown();
    assertThat(slow.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
  }
}
