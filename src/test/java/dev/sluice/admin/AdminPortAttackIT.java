package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.AdminClient;
import dev.sluice.testing.RawHttp;
import dev.sluice.testing.SluiceJarProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attacks on the admin HTTP port, which carries the Kubernetes liveness probe, against the packaged
 * jar at {@code -Xmx256m} with its default limits: connections that send one byte and stall,
 * headers and bodies trickled a byte at a time, and a token-less 2 MiB {@code /explain}.
 */
class AdminPortAttackIT {
  private static final String RULES =
      """
      domain: d
      descriptors:
        - key: k
          rate_limit: {unit: minute, requests_per_unit: 5}
      """;
  private static final String TOKEN = "attack-test-token-0123456789";
  private static final int ONE_BYTE_CONNECTIONS = 50;

  /**
   * The longest the one-byte attack holds; it ends sooner, once the server has cut every one of its
   * connections at the header timeout (5 s by default) and each was opened again, so the probes
   * have seen the server under the attack and through its cuts.
   */
  private static final Duration ATTACK = Duration.ofSeconds(15);

  private static final Duration PROBE_EVERY = Duration.ofMillis(500);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration TRICKLE_PACE = Duration.ofMillis(200);

  @TempDir Path tmp;

  @Test
  void healthcheck_fiftyOneByteConnectionsHeldOpen_everyProbeAnswers200() throws Exception {
    try (SluiceJarProcess sluice = SluiceJarProcess.start("256m", RULES)) {
      // One probe before the attack, so class loading on either side is not counted against it.
      assertThat(new AdminClient(sluice.httpPort()).get("/healthcheck").statusCode())
          .isEqualTo(200);
      try (OneByteConnections attack =
          new OneByteConnections(sluice.httpPort(), ONE_BYTE_CONNECTIONS)) {
        probeDuringAttack(sluice, attack);
      }
      assertThat(sluice.isAlive()).isTrue();
    }
  }

  private static void probeDuringAttack(SluiceJarProcess sluice, OneByteConnections attack)
      throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();
    URI health = URI.create("http://127.0.0.1:" + sluice.httpPort() + "/healthcheck");
    List<String> failures = new ArrayList<>();
    List<Long> millis = new ArrayList<>();
    long start = System.nanoTime();
    int maxProbes = (int) (ATTACK.toMillis() / PROBE_EVERY.toMillis());
    int probes = 0;
    for (int i = 0; i < maxProbes && attack.reopened() < ONE_BYTE_CONNECTIONS; i++, probes++) {
      attack.holdUntil(start + i * PROBE_EVERY.toNanos());
      long sent = System.nanoTime();
      try {
        HttpResponse<String> answer =
            http.send(
                HttpRequest.newBuilder(health).timeout(PROBE_TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
          failures.add("probe " + i + " answered " + answer.statusCode());
        }
      } catch (IOException e) {
        failures.add("probe " + i + ": " + e);
      }
      millis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent));
    }
    Collections.sort(millis);
    System.out.printf(
        "healthcheck under 50 one-byte connections: %d probes, p50 %d ms, max %d ms;"
            + " attack connections the server closed (and were reopened): %d%n",
        probes, millis.get(probes / 2), millis.get(probes - 1), attack.reopened());
    assertThat(failures).as("probes that did not answer 200 within " + PROBE_TIMEOUT).isEmpty();
  }

  @Test
  void slowClients_trickledHeadersAndSlowJsonBody_areCutOffByTheTimeouts() throws Exception {
    try (SluiceJarProcess sluice = SluiceJarProcess.start("256m", RULES)) {
      int port = sluice.httpPort();
      String headerTail = "X-Slow: " + "a".repeat(140) + "\r\n\r\n";
      String bodyTail = " ".repeat(150);
      String bodyHead =
          "POST /json HTTP/1.1\r\nHost: sluice\r\nContent-Type: application/json\r\n"
              + "Content-Length: "
              + bodyTail.length()
              + "\r\n\r\n";
      List<Trickle> trickled =
          together(
              () -> trickle(port, "GET /healthcheck HTTP/1.1\r\nHost: sluice\r\n", headerTail),
              () -> trickle(port, bodyHead, bodyTail));
      Trickle headers = trickled.get(0);
      Trickle body = trickled.get(1);
      System.out.printf("trickled headers: %s%ntrickled /json body: %s%n", headers, body);

      assertThat(headers.sent())
          .as("header bytes sent before the cut")
          .isLessThan(headerTail.length());
      assertThat(body.sent()).as("body bytes sent before the cut").isLessThan(bodyTail.length());
      assertThat(body.answer()).startsWith("HTTP/1.1 408");
      assertThat(new AdminClient(port).get("/healthcheck").statusCode()).isEqualTo(200);
    }
  }

  /**
   * Runs the trickles at once, each on a thread and connection of its own, so that their timeouts
   * (5 s for headers, 10 s for a body) are waited out together; returns them in order.
   */
  @SafeVarargs
  private static List<Trickle> together(Callable<Trickle>... trickles) throws Exception {
    ExecutorService clients = Executors.newFixedThreadPool(trickles.length);
    try {
      List<Future<Trickle>> running = new ArrayList<>();
      for (Callable<Trickle> trickle : trickles) {
        running.add(clients.submit(trickle));
      }
      List<Trickle> done = new ArrayList<>();
      for (Future<Trickle> each : running) {
        done.add(each.get());
      }
      return done;
    } finally {
      clients.shutdownNow();
    }
  }

  @Test
  void explain_tokenlessTwoMegabyteBody_isRefusedBeforeTheBodyIsRead() throws Exception {
    Path tokenFile = Files.writeString(tmp.resolve("token"), TOKEN + "\n");
    try (SluiceJarProcess sluice =
        SluiceJarProcess.start(
            "256m", RULES, "--admin-token-file", tokenFile.toString(), "--admin-token-for-reads")) {
      // Headers announcing 2 MiB and not one byte of body: the answer must not wait for it.
      String refused =
          RawHttp.exchange(
              sluice.httpPort(),
              "POST /explain HTTP/1.1\r\nHost: sluice\r\nContent-Type: application/json\r\n"
                  + "Content-Length: "
                  + (2 << 20)
                  + "\r\n\r\n",
              Duration.ofSeconds(10));
      assertThat(refused).startsWith("HTTP/1.1 401").contains("admin token required");
    }
  }

  @Test
  void badRequests_hugeNumberOrFieldName_answer400WithAShortBody() throws Exception {
    try (SluiceJarProcess sluice = SluiceJarProcess.start("256m", RULES)) {
      AdminClient admin = new AdminClient(sluice.httpPort());
      // A 500 KB number, and a 500 KB field name that the parser's complaint quotes.
      List<String> bodies =
          List.of(
              "{\"domain\":\"d\",\"hitsAddend\":" + "1".repeat(500_000) + "}",
              "{\"domain\":\"d\",\"" + "f".repeat(500_000) + "\":1}");
      for (String path : List.of("/explain", "/json")) {
        for (String body : bodies) {
          HttpResponse<String> invalid = admin.post(path, body);
          assertThat(invalid.statusCode()).as(path).isEqualTo(400);
          assertThat(invalid.body()).as(path).hasSizeLessThan(1_024);
        }
      }
    }
  }

  /** Sends {@code head} at once, then {@code tail} one byte per pace, until the server cuts in. */
  private static Trickle trickle(int port, String head, String tail) throws IOException {
    long start = System.nanoTime();
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setTcpNoDelay(true);
      socket.setSoTimeout((int) TRICKLE_PACE.toMillis());
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      byte[] answer = new byte[512];
      for (int sent = 0; sent < tail.length(); sent++) {
        try {
          out.write(tail.charAt(sent));
          // The read's timeout is the pace: nothing from the server within it, send the next byte.
          int read = in.read(answer);
          return new Trickle(sent, read < 0 ? "closed" : text(answer, read), seconds(start));
        } catch (SocketTimeoutException stillWaiting) {
          // the server is still waiting for more
        } catch (IOException cut) {
          return new Trickle(sent, cut.toString(), seconds(start));
        }
      }
      socket.setSoTimeout(5_000);
      try {
        int read = in.read(answer);
        return new Trickle(tail.length(), read < 0 ? "closed" : text(answer, read), seconds(start));
      } catch (SocketTimeoutException e) {
        return new Trickle(tail.length(), "no answer within 5 s", seconds(start));
      }
    }
  }

  /** How far a trickle got: bytes of its tail sent, what the server did, and when. */
  private record Trickle(int sent, String answer, double seconds) {}

  private static String text(byte[] bytes, int length) {
    return new String(bytes, 0, length, StandardCharsets.US_ASCII);
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /**
   * Connections that have each sent one byte and then nothing; one the server closes is opened
   * again at once, so the attack holds its number of connections for as long as it runs.
   */
  private static final class OneByteConnections implements AutoCloseable {
    private final InetSocketAddress target;
    private final Selector selector;
    private int reopened;

    OneByteConnections(int port, int count) throws IOException {
      this.target = new InetSocketAddress("127.0.0.1", port);
      this.selector = Selector.open();
      for (int i = 0; i < count; i++) {
        open();
      }
    }

    private void open() throws IOException {
      SocketChannel channel = SocketChannel.open(target);
      channel.write(ByteBuffer.wrap(new byte[] {'G'}));
      channel.configureBlocking(false);
      channel.register(selector, SelectionKey.OP_READ);
    }

    /** Until {@code deadlineNanos} (System.nanoTime), reopens every connection the server ends. */
    void holdUntil(long deadlineNanos) throws IOException {
      for (long left = deadlineNanos - System.nanoTime();
          left > 0;
          left = deadlineNanos - System.nanoTime()) {
        selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        for (SelectionKey key : selector.selectedKeys()) {
          if (ended((SocketChannel) key.channel())) {
            key.cancel();
            key.channel().close();
            reopened++;
            open();
          }
        }
        selector.selectedKeys().clear();
      }
    }

    private static boolean ended(SocketChannel channel) {
      try {
        return channel.read(ByteBuffer.allocate(1024)) != 0;
      } catch (IOException e) {
        return true;
      }
    }

    int reopened() {
      return reopened;
    }

    @Override
    public void close() throws IOException {
      for (SelectionKey key : selector.keys()) {
        key.channel().close();
      }
      selector.close();
    }
  }
}
