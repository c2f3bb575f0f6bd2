package dev.sluice.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.sluice.limiter.CounterAdmin;
import dev.sluice.limiter.InvalidRequestException;
import dev.sluice.rules.Entry;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /counters?domain=api&user=alice}: the rule those entries match and its counter,
 * without consuming. {@code DELETE} with the same query clears it (403 with {@code
 * --admin-read-only}); every reset is logged with the caller's address. Entries are taken in query
 * order, after the {@code domain} parameter.
 */
public final class CountersHandler implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(CountersHandler.class);
  private static final String TEXT = "text/plain; charset=utf-8";

  private final CounterAdmin counters;
  private final boolean readOnly;

  public CountersHandler(CounterAdmin counters, boolean readOnly) {
    this.counters = counters;
    this.readOnly = readOnly;
  }

  private record Query(String domain, List<Entry> entries) {}

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod().toUpperCase(java.util.Locale.ROOT);
    if (!method.equals("GET") && !method.equals("DELETE")) {
      exchange.getResponseHeaders().set("Allow", "GET, DELETE");
      AdminHttpServer.send(exchange, 405, TEXT, "use GET or DELETE\n");
      return;
    }
    Query query = parse(exchange.getRequestURI().getRawQuery());
    if (query.domain().isEmpty() || query.entries().isEmpty()) {
      AdminHttpServer.send(
          exchange, 400, TEXT, "usage: /counters?domain=D&key=value[&key2=value2]\n");
      return;
    }
    boolean reset = method.equals("DELETE");
    if (reset && readOnly) {
      AdminHttpServer.send(exchange, 403, TEXT, "admin is read-only\n");
      return;
    }
    Optional<CounterAdmin.Found> found;
    try {
      found =
          (reset
                  ? counters.reset(query.domain(), query.entries())
                  : counters.inspect(query.domain(), query.entries()))
              .get(10, TimeUnit.SECONDS);
    } catch (InvalidRequestException e) {
      AdminHttpServer.send(exchange, 400, TEXT, e.getMessage() + "\n");
      return;
    } catch (ExecutionException | TimeoutException e) {
      AdminHttpServer.send(
          exchange,
          503,
          TEXT,
          "store did not answer: " + (e.getCause() == null ? e : e.getCause().getMessage()) + "\n");
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      AdminHttpServer.send(exchange, 503, TEXT, "interrupted\n");
      return;
    }
    if (reset) {
      log.warn(
          "counter reset by {} (http): domain {} entries {} -> {}",
          exchange.getRemoteAddress(),
          query.domain(),
          query.entries(),
          found
              .map(f -> f.counter().storeKey() + (f.counter().exists() ? " removed" : " was empty"))
              .orElse("no counted rule"));
    }
    RulesHandler.sendJson(
        exchange,
        found.isPresent() ? 200 : 404,
        CounterJson.of(found, reset ? "removed" : "exists"));
  }

  private static Query parse(String rawQuery) {
    String domain = "";
    List<Entry> entries = new ArrayList<>();
    if (rawQuery == null) {
      return new Query(domain, entries);
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      if (key.equals("domain") && domain.isEmpty()) {
        domain = value;
      } else {
        entries.add(new Entry(key, value));
      }
    }
    return new Query(domain, entries);
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }
}
