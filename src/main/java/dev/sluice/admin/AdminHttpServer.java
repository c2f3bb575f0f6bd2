package dev.sluice.admin;

import com.google.protobuf.MessageOrBuilder;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.logging.LogText;
import dev.sluice.threads.DaemonThreadFactory;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP port, on the JDK's built-in server: a handful of low-traffic endpoints do not
 * justify a web framework. Handlers are registered before {@link #start}.
 */
public final class AdminHttpServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AdminHttpServer.class);

  static final String JSON = "application/json";
  static final String TEXT = "text/plain; charset=utf-8";
  private static final long ANSWER_TIMEOUT_SECONDS = 10;

  private final HttpServer server;
  private final ExecutorService executor;

  /**
   * @param address where to listen; port 0 picks a free port
   */
  public AdminHttpServer(InetSocketAddress address) {
    try {
      this.server = HttpServer.create(address, 0);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot listen for HTTP on port "
              + address.getPort()
              + " ("
              + address.getHostString()
              + ")",
          e);
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
      log.error(
          "admin {} {} failed",
          LogText.safe(exchange.getRequestMethod()),
          LogText.safe(exchange.getRequestURI()),
          e);
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

  /** Who sent {@code exchange}: its address and the bearer token of its Authorization header. */
  public static Caller caller(HttpExchange exchange) {
    return new Caller(
        "http",
        String.valueOf(exchange.getRemoteAddress()),
        Caller.bearerOf(exchange.getRequestHeaders().getFirst("Authorization")));
  }

  /**
   * Sends what {@code answer} completes with as admin JSON, with the HTTP status {@code statusOf}
   * picks for it; a failure is answered by {@link AdminFailure}'s mapping.
   */
  public static <M extends MessageOrBuilder> void answer(
      HttpExchange exchange, CompletableFuture<M> answer, ToIntFunction<M> statusOf)
      throws IOException {
    M response;
    try {
      response = answer.get(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      fail(exchange, AdminFailure.of(e));
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail(exchange, AdminFailure.of(e));
      return;
    }
    send(exchange, statusOf.applyAsInt(response), JSON, ProtoJson.print(ProtoJson.ADMIN, response));
  }

  /** Sends {@code failure} as plain text with its HTTP status. */
  public static void fail(HttpExchange exchange, AdminFailure failure) throws IOException {
    if (failure.http() == 401) {
      exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
    }
    send(exchange, failure.http(), TEXT, failure.message() + "\n");
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
