package dev.sluice.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.threads.DaemonThreadFactory;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP port, on the JDK's built-in server: a handful of low-traffic endpoints do not
 * justify a web framework. Handlers are registered before {@link #start}.
 */
public final class AdminHttpServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AdminHttpServer.class);

  private final HttpServer server;
  private final ExecutorService executor;

  /**
   * @param port 0 picks a free port
   */
  public AdminHttpServer(int port) {
    try {
      this.server = HttpServer.create(new InetSocketAddress(port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen for HTTP on port " + port, e);
    }
    this.executor = Executors.newFixedThreadPool(2, new DaemonThreadFactory("admin-http"));
    server.setExecutor(executor);
  }

  /** Serves {@code path} (and everything under it) with {@code handler}; errors become 500s. */
  public AdminHttpServer handle(String path, HttpHandler handler) {
    server.createContext(path, exchange -> safely(handler, exchange));
    return this;
  }

  private static void safely(HttpHandler handler, HttpExchange exchange) throws IOException {
    try (exchange) {
      handler.handle(exchange);
    } catch (RuntimeException e) {
      log.error("admin {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
      send(exchange, 500, "text/plain; charset=utf-8", "internal error: " + e + "\n");
    }
  }

  public AdminHttpServer start() {
    server.start();
    return this;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** Sends a whole response body; safe to call once per exchange. */
  public static void send(HttpExchange exchange, int status, String contentType, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  /** Answers 405 unless the request uses {@code method}; returns whether it did. */
  public static boolean requireMethod(HttpExchange exchange, String method) throws IOException {
    if (exchange.getRequestMethod().equalsIgnoreCase(method)) {
      return true;
    }
    exchange.getResponseHeaders().set("Allow", method);
    send(exchange, 405, "text/plain; charset=utf-8", "use " + method + "\n");
    return false;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
