package dev.sluice.refstats;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reference's Prometheus listener ({@code PROMETHEUS_ADDR}, {@code PROMETHEUS_PATH}): answers
 * GET (and HEAD) of its one path with {@link ReferenceStats#scrape}, 404 elsewhere, 405 for other
 * methods. Reads nothing from the request and writes nothing but the response. One handler thread
 * from the factory it is given ({@code reference-metrics-0}): a scrape is a few milliseconds.
 */
public final class ReferenceMetricsServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReferenceMetricsServer.class);

  private final HttpServer server;
  private final ExecutorService executor;

  private ReferenceMetricsServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Listens on {@code address} and starts serving.
   *
   * @param path the one path served, starting with {@code /}
   * @throws UncheckedIOException naming the address when it cannot be bound
   */
  public static ReferenceMetricsServer start(
      InetSocketAddress address, String path, ReferenceStats stats, ThreadFactory threads) {
    HttpServer server;
    try {
      server = HttpServer.create(address, 0);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot listen for reference metrics on "
              + address.getHostString()
              + ":"
              + address.getPort()
              + ": "
              + e.getMessage(),
          e);
    }
    ExecutorService executor = Executors.newSingleThreadExecutor(threads);
    server.setExecutor(executor);
    server.createContext("/", exchange -> answer(exchange, path, stats));
    server.start();
    log.info(
        "reference metrics (the reference's stat names) on port {} at {}",
        server.getAddress().getPort(),
        path);
    return new ReferenceMetricsServer(server, executor);
  }

  private static void answer(HttpExchange exchange, String path, ReferenceStats stats)
      throws IOException {
    try (exchange) {
      if (!exchange.getRequestURI().getPath().equals(path)) {
        send(
            exchange,
            404,
            "text/plain; charset=utf-8",
            "404 page not found\n".getBytes(StandardCharsets.UTF_8));
        return;
      }
      String method = exchange.getRequestMethod();
      if (!method.equals("GET") && !method.equals("HEAD")) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        send(
            exchange,
            405,
            "text/plain; charset=utf-8",
            "use GET\n".getBytes(StandardCharsets.UTF_8));
        return;
      }
      byte[] body = stats.scrape();
      send(exchange, 200, ReferenceStats.contentType(), method.equals("HEAD") ? null : body);
    }
  }

  /**
   * @param body null for a HEAD answer
   */
  private static void send(HttpExchange exchange, int status, String contentType, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    if (body == null || body.length == 0) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  /** The port it listens on (the one picked, when asked for port 0). */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
