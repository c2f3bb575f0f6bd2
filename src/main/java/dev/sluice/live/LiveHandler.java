package dev.sluice.live;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * {@code GET /ui}: the live page, one self-contained HTML file (inline script and style, no
 * external assets, so it works on a machine without internet). {@code GET /ui/data}: what the page
 * polls, as JSON, for tools too. The composition root puts {@code /ui/data} behind the admin read
 * guard; the page then asks for the token and sends it as a bearer header (see {@code live.html}).
 */
public final class LiveHandler implements HttpHandler {
  private static final String PAGE_RESOURCE = "live.html";

  private final LiveStats stats;
  private final Supplier<LiveStatus> status;
  private final byte[] page;

  public LiveHandler(LiveStats stats, Supplier<LiveStatus> status) {
    this.stats = stats;
    this.status = status;
    this.page = readPage();
  }

  private static byte[] readPage() {
    try (InputStream in = LiveHandler.class.getResourceAsStream(PAGE_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + PAGE_RESOURCE);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    if (!exchange.getRequestMethod().equalsIgnoreCase("GET")) {
      exchange.getResponseHeaders().set("Allow", "GET");
      send(
          exchange, 405, "text/plain; charset=utf-8", "use GET\n".getBytes(StandardCharsets.UTF_8));
      return;
    }
    String path = exchange.getRequestURI().getPath();
    switch (path) {
      case "/ui", "/ui/" -> send(exchange, 200, "text/html; charset=utf-8", page);
      case "/ui/data" ->
          send(
              exchange,
              200,
              "application/json",
              LiveJson.of(stats.snapshot(), status.get()).getBytes(StandardCharsets.UTF_8));
      default ->
          send(
              exchange,
              404,
              "text/plain; charset=utf-8",
              "not found\n".getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void send(HttpExchange exchange, int status, String type, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
