package dev.sluice.bench;

import java.util.Objects;

/** A gRPC server address, {@code host:port}. */
public record Target(String host, int port) {
  public Target {
    Objects.requireNonNull(host, "host");
    if (host.isBlank()) {
      throw new IllegalArgumentException("target host must not be empty");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("target port must be 1..65535: " + port);
    }
  }

  /**
   * Parses {@code host:port}; {@code [::1]:8081} for IPv6.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  public static Target parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("invalid target '" + text + "'; expected HOST:PORT");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    try {
      return new Target(host, Integer.parseInt(text.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid target '" + text + "'; expected HOST:PORT");
    }
  }

  @Override
  public String toString() {
    return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
  }
}
