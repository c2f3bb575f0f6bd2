package dev.sluice.admin;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.sluice.rules.load.RuleReloader;
import java.io.IOException;
import java.util.Locale;

/**
 * {@code GET /rules}: the rules being served, as JSON. {@code POST /rules/reload}: reload now (403
 * with {@code --admin-read-only}); 200 when the new rules were loaded or unchanged, 422 when they
 * were rejected, with the problems.
 */
public final class RulesHandler implements HttpHandler {
  private static final String JSON = "application/json";

  private final RuleReloader reloader;
  private final boolean readOnly;

  public RulesHandler(RuleReloader reloader, boolean readOnly) {
    this.reloader = reloader;
    this.readOnly = readOnly;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    if (path.equals("/rules/reload")) {
      reload(exchange);
    } else if (path.equals("/rules") || path.equals("/rules/")) {
      if (AdminHttpServer.requireMethod(exchange, "GET")) {
        sendJson(exchange, 200, RulesJson.of(reloader.current(), reloader.lastError()));
      }
    } else {
      AdminHttpServer.send(exchange, 404, "text/plain; charset=utf-8", "not found\n");
    }
  }

  private void reload(HttpExchange exchange) throws IOException {
    if (!AdminHttpServer.requireMethod(exchange, "POST")) {
      return;
    }
    if (readOnly) {
      AdminHttpServer.send(exchange, 403, "text/plain; charset=utf-8", "admin is read-only\n");
      return;
    }
    RuleReloader.Outcome outcome = reloader.reload();
    JsonObject body = RulesJson.of(reloader.current(), reloader.lastError());
    body.addProperty("outcome", outcome.name().toLowerCase(Locale.ROOT));
    sendJson(exchange, outcome == RuleReloader.Outcome.REJECTED ? 422 : 200, body);
  }

  static void sendJson(HttpExchange exchange, int status, JsonObject body) throws IOException {
    String text = new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(body);
    AdminHttpServer.send(exchange, status, JSON, text + "\n");
  }
}
