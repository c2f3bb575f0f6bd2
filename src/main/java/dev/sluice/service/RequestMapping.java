package dev.sluice.service;

import dev.sluice.limiter.DescriptorRequest;
import dev.sluice.limiter.InvalidRequestException;
import dev.sluice.limiter.LimitOverride;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Unit;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Envoy's {@link RateLimitRequest} to a {@link RateLimitCall}. */
final class RequestMapping {
  private RequestMapping() {}

  /**
   * @throws InvalidRequestException for an empty domain, no descriptors, or an override whose unit
   *     is UNKNOWN or not a unit we know (the reference service crashes on it)
   */
  static RateLimitCall toCall(RateLimitRequest request) {
    List<DescriptorRequest> descriptors = new ArrayList<>(request.getDescriptorsCount());
    for (RateLimitDescriptor descriptor : request.getDescriptorsList()) {
      descriptors.add(toDescriptor(descriptor));
    }
    return new RateLimitCall(
        request.getDomain(), descriptors, Integer.toUnsignedLong(request.getHitsAddend()));
  }

  private static DescriptorRequest toDescriptor(RateLimitDescriptor descriptor) {
    List<Entry> entries = new ArrayList<>(descriptor.getEntriesCount());
    for (RateLimitDescriptor.Entry entry : descriptor.getEntriesList()) {
      entries.add(new Entry(entry.getKey(), entry.getValue()));
    }
    Optional<LimitOverride> override =
        descriptor.hasLimit() ? Optional.of(toOverride(descriptor.getLimit())) : Optional.empty();
    OptionalLong hits =
        descriptor.hasHitsAddend()
            ? OptionalLong.of(nonNegative(descriptor.getHitsAddend().getValue()))
            : OptionalLong.empty();
    return new DescriptorRequest(entries, override, hits);
  }

  private static LimitOverride toOverride(RateLimitDescriptor.RateLimitOverride limit) {
    Unit unit =
        unitOf(limit.getUnitValue())
            .orElseThrow(
                () ->
                    new InvalidRequestException(
                        "rate limit override has unknown unit "
                            + limit.getUnitValue()
                            + "; expected SECOND, MINUTE, HOUR, DAY, WEEK, MONTH or YEAR"));
    return new LimitOverride(Integer.toUnsignedLong(limit.getRequestsPerUnit()), unit);
  }

  /** By number, so WEEK (7), which newer Envoy versions send, is understood too. */
  static Optional<Unit> unitOf(int number) {
    return switch (number) {
      case 1 -> Optional.of(Unit.SECOND);
      case 2 -> Optional.of(Unit.MINUTE);
      case 3 -> Optional.of(Unit.HOUR);
      case 4 -> Optional.of(Unit.DAY);
      case 5 -> Optional.of(Unit.MONTH);
      case 6 -> Optional.of(Unit.YEAR);
      case 7 -> Optional.of(Unit.WEEK);
      default -> Optional.empty();
    };
  }

  private static long nonNegative(long uint64) {
    if (uint64 < 0) {
      throw new InvalidRequestException("hits_addend too large: " + Long.toUnsignedString(uint64));
    }
    return uint64;
  }
}
