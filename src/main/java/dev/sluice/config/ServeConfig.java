package dev.sluice.config;

import java.util.Objects;

/**
 * Everything {@code sluice serve} needs: the one settings tree, validated when built (each record
 * checks itself in its compact constructor), never re-read. Each component receives only its own
 * sub-record. Its {@code toString} is safe to log: secrets print as {@code ***}.
 */
public record ServeConfig(
    RulesConfig rules,
    StoreConfig store,
    ServerConfig server,
    LimiterConfig limiter,
    HeaderConfig headers) {
  public ServeConfig {
    Objects.requireNonNull(rules, "rules");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(limiter, "limiter");
    Objects.requireNonNull(headers, "headers");
  }

  public ServeConfig withRules(RulesConfig newRules) {
    return new ServeConfig(newRules, store, server, limiter, headers);
  }

  public ServeConfig withStore(StoreConfig newStore) {
    return new ServeConfig(rules, newStore, server, limiter, headers);
  }

  public ServeConfig withServer(ServerConfig newServer) {
    return new ServeConfig(rules, store, newServer, limiter, headers);
  }

  public ServeConfig withLimiter(LimiterConfig newLimiter) {
    return new ServeConfig(rules, store, server, newLimiter, headers);
  }

  public ServeConfig withHeaders(HeaderConfig newHeaders) {
    return new ServeConfig(rules, store, server, limiter, newHeaders);
  }
}
