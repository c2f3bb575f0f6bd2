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
}
