package dev.sluice.embed;

import dev.sluice.limiter.Code;
import dev.sluice.limiter.CurrentLimit;
import dev.sluice.limiter.DescriptorDecision;
import dev.sluice.limiter.DescriptorRequest;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.rules.Entry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The embedded API's values to and from the limiter's, the way the gRPC service maps Envoy's: a
 * descriptor becomes a {@link DescriptorRequest} carrying the caller's hits as its own addend (so 0
 * really checks without charging, where proto3's 0 would mean 1).
 */
final class CallMapping {
  private CallMapping() {}

  /**
   * @throws IllegalArgumentException for a null or empty domain, no descriptors, a null descriptor
   *     or negative hits, naming the bad value
   */
  static RateLimitCall toCall(String domain, List<Descriptor> descriptors, int hits) {
    if (domain == null || domain.isEmpty()) {
      throw new IllegalArgumentException("domain must not be empty: " + domain);
    }
    Objects.requireNonNull(descriptors, "descriptors");
    if (descriptors.isEmpty()) {
      throw new IllegalArgumentException("at least one descriptor is needed");
    }
    if (hits < 0) {
      throw new IllegalArgumentException("hits must be >= 0: " + hits);
    }
    OptionalLong addend = OptionalLong.of(hits);
    List<DescriptorRequest> requests = new ArrayList<>(descriptors.size());
    for (Descriptor descriptor : descriptors) {
      if (descriptor == null) {
        throw new IllegalArgumentException("descriptor " + requests.size() + " is null");
      }
      requests.add(new DescriptorRequest(entriesOf(descriptor), Optional.empty(), addend));
    }
    return new RateLimitCall(domain, requests, hits);
  }

  private static List<Entry> entriesOf(Descriptor descriptor) {
    List<Entry> entries = new ArrayList<>(descriptor.entries().size());
    for (Descriptor.Entry entry : descriptor.entries()) {
      entries.add(new Entry(entry.key(), entry.value()));
    }
    return entries;
  }

  static Decision toDecision(dev.sluice.limiter.Decision decision) {
    List<Decision.Status> statuses = new ArrayList<>(decision.statuses().size());
    for (DescriptorDecision status : decision.statuses()) {
      statuses.add(
          new Decision.Status(
              status.code() == Code.OVER_LIMIT,
              status.currentLimit().map(CallMapping::toLimit),
              status.remaining(),
              status.untilReset()));
    }
    return new Decision(decision.overall() == Code.OVER_LIMIT, statuses);
  }

  private static Decision.Limit toLimit(CurrentLimit current) {
    return new Decision.Limit(
        current.name(),
        current.limit().requestsPerUnit(),
        current.limit().unit().name().toLowerCase(Locale.ROOT),
        current.limit().algorithm().configName());
  }
}
