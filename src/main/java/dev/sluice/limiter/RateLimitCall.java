package dev.sluice.limiter;

import java.util.List;
import java.util.Objects;

/**
 * A whole ShouldRateLimit request.
 *
 * @param hitsAddend the request-level addend; 0 means 1 (proto3 cannot tell unset from 0)
 * @throws InvalidRequestException for an empty domain or no descriptors, with the reference
 *     service's messages
 */
public record RateLimitCall(String domain, List<DescriptorRequest> descriptors, long hitsAddend) {
  public RateLimitCall {
    Objects.requireNonNull(domain, "domain");
    if (domain.isEmpty()) {
      throw new InvalidRequestException("rate limit domain must not be empty");
    }
    descriptors = List.copyOf(descriptors);
    if (descriptors.isEmpty()) {
      throw new InvalidRequestException("rate limit descriptor list must not be empty");
    }
    if (hitsAddend < 0) {
      throw new InvalidRequestException("hits_addend must be >= 0: " + hitsAddend);
    }
  }

  public static RateLimitCall of(String domain, DescriptorRequest... descriptors) {
    return new RateLimitCall(domain, List.of(descriptors), 0);
  }

  /** The addend for one descriptor: its own if present, else the request's, where 0 means 1. */
  long hitsFor(DescriptorRequest descriptor) {
    if (descriptor.hitsAddend().isPresent()) {
      return descriptor.hitsAddend().getAsLong();
    }
    return hitsAddend == 0 ? 1 : hitsAddend;
  }
}
