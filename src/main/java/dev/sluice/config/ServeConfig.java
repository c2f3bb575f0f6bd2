package dev.sluice.config;

import dev.sluice.limiter.LimiterSettings;
import java.util.Objects;

/** Everything {@code sluice serve} needs, validated. */
public record ServeConfig(
    RulesConfig rules,
    StoreConfig store,
    ServerConfig server,
    LimiterSettings limiter,
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

  public ServeConfig withServer(ServerConfig newServer) {
    return new ServeConfig(rules, store, newServer, limiter, headers);
  }

  public ServeConfig withLimiter(LimiterSettings newLimiter) {
    return new ServeConfig(rules, store, server, newLimiter, headers);
  }

  public ServeConfig withHeaders(HeaderConfig newHeaders) {
    return new ServeConfig(rules, store, server, limiter, newHeaders);
  }
}
