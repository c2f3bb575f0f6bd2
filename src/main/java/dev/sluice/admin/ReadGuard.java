package dev.sluice.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.concurrent.ExecutionException;

/**
 * Puts {@link AdminApi}'s read check in front of an endpoint that is not part of the admin API
 * itself ({@code /healthcheck}, {@code /metrics}, {@code /json}): open unless {@code
 * --admin-token-for-reads}.
 */
public final class ReadGuard implements HttpHandler {
  private final AdminApi api;
  private final HttpHandler handler;

  public ReadGuard(AdminApi api, HttpHandler handler) {
    this.api = api;
    this.handler = handler;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try {
      api.authorizeRead(AdminHttpServer.caller(exchange)).get();
    } catch (ExecutionException e) {
      AdminHttpServer.fail(exchange, AdminFailure.of(e));
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      AdminHttpServer.fail(exchange, AdminFailure.of(e));
      return;
    }
    handler.handle(exchange);
  }
}
