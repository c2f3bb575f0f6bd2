package dev.sluice.admin;

import dev.sluice.admin.v1.CounterRequest;
import dev.sluice.admin.v1.Entry;
import dev.sluice.admin.v1.MetricLabelRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * {@code GET /counters?domain=api&user=alice}: {@code InspectCounterResponse} as JSON, without
 * consuming. {@code DELETE} with the same query: {@code ResetCounterResponse} (a write: token
 * needed, audit-logged). 404 when no counted rule matches. Entries are taken in query order, after
 * the {@code domain} parameter.
 *
 * <p>{@code GET /counters/label?domain=web&label=client_aaaa...%233f2a9c0d1e2b4a5c}: {@code
 * MetricLabelResponse}, the whole request value behind a {@code detailed_metric} series whose label
 * {@code /metrics} shows cut; 404 when no detailed series of the domain has that label.
 */
public final class CountersHandler implements AdminRoute {
  private final AdminApi api;

  public CountersHandler(AdminApi api) {
    this.api = api;
  }

  @Override
  public AdminResponse answer(AdminRequest request) {
    if (request.path().equals("/counters/label")) {
      return label(request);
    }
    if (!request.path().equals("/counters") && !request.path().equals("/counters/")) {
      return AdminResponse.notFound();
    }
    Caller caller = request.caller();
    CounterRequest counter = parse(request.rawQuery());
    return switch (request.method().toUpperCase(Locale.ROOT)) {
      case "GET" ->
          AdminResponse.answer(api.inspect(caller, counter), r -> r.getMatched() ? 200 : 404);
      case "DELETE" ->
          AdminResponse.answer(api.reset(caller, counter), r -> r.getMatched() ? 200 : 404);
      default -> AdminResponse.methodNotAllowed("GET, DELETE");
    };
  }

  private AdminResponse label(AdminRequest request) {
    if (!request.isMethod("GET")) {
      return AdminResponse.methodNotAllowed("GET");
    }
    CounterRequest query = parse(request.rawQuery());
    MetricLabelRequest.Builder label = MetricLabelRequest.newBuilder().setDomain(query.getDomain());
    query.getEntriesList().stream()
        .filter(e -> e.getKey().equals("label"))
        .findFirst()
        .ifPresent(e -> label.setLabel(e.getValue()));
    return AdminResponse.answer(
        api.metricLabel(request.caller(), label.build()), r -> r.getFound() ? 200 : 404);
  }

  private static CounterRequest parse(String rawQuery) {
    CounterRequest.Builder request = CounterRequest.newBuilder();
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
