package dev.sluice.config;

import java.util.Objects;

/**
 * The {@code RateLimit-*} response headers Sluice may ask Envoy to add.
 *
 * @param enabled off by default, as in the reference service
 */
public record HeaderConfig(
    boolean enabled, String limitHeader, String remainingHeader, String resetHeader) {
  public HeaderConfig {
    for (String name : new String[] {limitHeader, remainingHeader, resetHeader}) {
      Objects.requireNonNull(name, "header name");
      if (!name.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")) {
        throw new IllegalArgumentException("invalid header name: '" + name + "'");
      }
    }
  }

  public static HeaderConfig off() {
    return new HeaderConfig(false, "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset");
  }
}
