package dev.sluice.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.sluice.admin.v1.CounterRequest;
import dev.sluice.admin.v1.Entry;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * {@code GET /counters?domain=api&user=alice}: {@code InspectCounterResponse} as JSON, without
 * consuming. {@code DELETE} with the same query: {@code ResetCounterResponse} (a write: token
 * needed, audit-logged). 404 when no counted rule matches. Entries are taken in query order, after
 * the {@code domain} parameter.
 */
public final class CountersHandler implements HttpHandler {
  private final AdminApi api;

  public CountersHandler(AdminApi api) {
    this.api = api;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
    Caller caller = AdminHttpServer.caller(exchange);
    CounterRequest request = parse(exchange.getRequestURI().getRawQuery());
    switch (method) {
      case "GET" ->
          AdminHttpServer.answer(
              exchange, api.inspect(caller, request), r -> r.getMatched() ? 200 : 404);
      case "DELETE" ->
          AdminHttpServer.answer(
              exchange, api.reset(caller, request), r -> r.getMatched() ? 200 : 404);
      default -> {
        exchange.getResponseHeaders().set("Allow", "GET, DELETE");
        AdminHttpServer.send(exchange, 405, AdminHttpServer.TEXT, "use GET or DELETE\n");
      }
    }
  }

  private static CounterRequest parse(String rawQuery) {
    CounterRequest.Builder request = CounterRequest.newBuilder();
    if (rawQuery == null) {
      return request.build();
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      if (key.equals("domain") && request.getDomain().isEmpty()) {
        request.setDomain(value);
      } else {
        request.addEntries(Entry.newBuilder().setKey(key).setValue(value));
      }
    }
    return request.build();
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }
}
