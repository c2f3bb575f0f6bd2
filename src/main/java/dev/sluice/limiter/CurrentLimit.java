package dev.sluice.limiter;

import dev.sluice.rules.Limit;
import java.util.Map;
import java.util.Objects;

/**
 * The limit that governed a descriptor, as reported back to Envoy.
 *
 * @param name the rule's {@code rate_limit.name}; {@code ""} for unnamed rules and overrides
 * @param metadata the rule's {@link dev.sluice.rules.Rule#metadata()}; empty for overrides
 */
public record CurrentLimit(Limit limit, String name, Map<String, Object> metadata) {
  public CurrentLimit {
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(metadata, "metadata");
  }

  /** Without metadata. */
  public CurrentLimit(Limit limit, String name) {
    this(limit, name, Map.of());
  }
}
