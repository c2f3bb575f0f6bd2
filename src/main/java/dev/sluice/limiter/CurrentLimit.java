package dev.sluice.limiter;

import dev.sluice.rules.Limit;
import java.util.Objects;

/**
 * The limit that governed a descriptor, as reported back to Envoy.
 *
 * @param name the rule's {@code rate_limit.name}; {@code ""} for unnamed rules and overrides
 */
public record CurrentLimit(Limit limit, String name) {
  public CurrentLimit {
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(name, "name");
  }
}
