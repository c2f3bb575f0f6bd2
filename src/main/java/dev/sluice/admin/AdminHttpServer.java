package dev.sluice.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The admin HTTP port, on the JDK's built-in server (a handful of low-traffic endpoints do not
 * justify a web framework). {@code GET /healthcheck}: 200 {@code OK} when healthy, else 503 with
 * one line per problem.
 */
public final class AdminHttpServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor;

  /**
   * @param port 0 picks a free port
   */
  public AdminHttpServer(int port, Supplier<HealthReport> health) {
    try {
      this.server = HttpServer.create(new InetSocketAddress(port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen for HTTP on port " + port, e);
    }
    this.executor = Executors.newFixedThreadPool(2, daemon());
    server.setExecutor(executor);
    server.createContext("/healthcheck", exchange -> healthcheck(exchange, health.get()));
  }

  public AdminHttpServer start() {
    server.start();
    return this;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void healthcheck(HttpExchange exchange, HealthReport report) throws IOException {
    String body = report.healthy() ? "OK\n" : String.join("\n", report.problems()) + "\n";
    send(exchange, report.healthy() ? 200 : 503, body);
  }

  static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private static java.util.concurrent.ThreadFactory daemon() {
    return runnable -> {
      Thread thread = new Thread(runnable, "admin-http");
      thread.setDaemon(true);
      return thread;
    };
  }
}
