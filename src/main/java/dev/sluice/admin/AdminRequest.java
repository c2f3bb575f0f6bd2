package dev.sluice.admin;

import java.util.Objects;

/**
 * One admin HTTP request as a route sees it.
 *
 * @param method the method as sent ({@code GET}, {@code POST}, ...)
 * @param path the decoded path, e.g. {@code /rules/reload}
 * @param rawQuery the query as sent, still percent-encoded; empty when there is none
 * @param caller who sent it: address and bearer token
 * @param body the whole body, at most {@link AdminHttpServer#MAX_BODY_BYTES}; empty when there is
 *     none, and always empty for an {@link AdminGate}, which runs before the body is read
 */
public record AdminRequest(
    String method, String path, String rawQuery, Caller caller, byte[] body) {
  public AdminRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(rawQuery, "rawQuery");
    Objects.requireNonNull(caller, "caller");
    Objects.requireNonNull(body, "body");
  }

  /** Whether the request uses {@code expected}, ignoring case. */
  public boolean isMethod(String expected) {
    return method.equalsIgnoreCase(expected);
  }

  /** This request with {@code bytes} as its body. */
  AdminRequest withBody(byte[] bytes) {
    return new AdminRequest(method, path, rawQuery, caller, bytes);
  }
}
