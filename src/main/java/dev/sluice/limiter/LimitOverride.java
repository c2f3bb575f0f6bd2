package dev.sluice.limiter;

import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import java.util.Objects;

/**
 * A limit sent by the client in the descriptor (Envoy's {@code RateLimitOverride}). It replaces the
 * matched rule's limit for that descriptor, but only in a known domain.
 */
public record LimitOverride(long requestsPerUnit, Unit unit) {
  public LimitOverride {
    Objects.requireNonNull(unit, "unit");
    if (requestsPerUnit < 0 || requestsPerUnit > Limit.MAX_UINT32) {
      throw new InvalidRequestException(
          "override requests_per_unit out of range: " + requestsPerUnit);
    }
  }
}
