package dev.sluice.deploy;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An HTTP request as Envoy's edge listener sees it: the client's address (the TCP peer) and the
 * request headers, including the pseudo-headers {@code :method} and {@code :path} (path with query
 * string, as on the wire). Header names are lower-case, as Envoy stores them.
 */
record ClientRequest(String clientIp, Map<String, String> headers) {
  ClientRequest {
    headers = Map.copyOf(headers);
  }

  static ClientRequest get(String clientIp, String path) {
    return of(clientIp, "GET", path);
  }

  static ClientRequest post(String clientIp, String path) {
    return of(clientIp, "POST", path);
  }

  private static ClientRequest of(String clientIp, String method, String path) {
    return new ClientRequest(clientIp, Map.of(":method", method, ":path", path));
  }

  ClientRequest withHeader(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name.toLowerCase(Locale.ROOT), value);
    return new ClientRequest(clientIp, more);
  }

  Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
  }

  /** The path without the query string, which is what Envoy's prefix and path matchers see. */
  String pathWithoutQuery() {
    String path = headers.get(":path");
    int query = path.indexOf('?');
    return query < 0 ? path : path.substring(0, query);
  }
}
