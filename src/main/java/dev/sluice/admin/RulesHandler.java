package dev.sluice.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.sluice.admin.v1.ReloadResponse;
import java.io.IOException;

/**
 * {@code GET /rules}: {@code GetRulesResponse} as JSON. {@code POST /rules/reload}: {@code
 * ReloadResponse}, 200 when loaded or unchanged, 422 when rejected (with the problems).
 */
public final class RulesHandler implements HttpHandler {
  private final AdminApi api;

  public RulesHandler(AdminApi api) {
    this.api = api;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    if (path.equals("/rules/reload")) {
      if (AdminHttpServer.requireMethod(exchange, "POST")) {
        AdminHttpServer.answer(
            exchange,
            api.reload(AdminHttpServer.caller(exchange)),
            r -> r.getOutcome() == ReloadResponse.Outcome.REJECTED ? 422 : 200);
      }
    } else if (path.equals("/rules") || path.equals("/rules/")) {
      if (AdminHttpServer.requireMethod(exchange, "GET")) {
        AdminHttpServer.answer(exchange, api.rules(AdminHttpServer.caller(exchange)), r -> 200);
      }
    } else {
      AdminHttpServer.send(exchange, 404, AdminHttpServer.TEXT, "not found\n");
    }
  }
}
