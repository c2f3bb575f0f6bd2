package dev.sluice.explain;

import java.util.List;
import java.util.Objects;

/**
 * Why a request would be answered as it would, descriptor by descriptor.
 *
 * @param domainKnown false when no rule file declares the domain: every descriptor is then OK and
 *     nothing is tried
 */
public record Explanation(
    String domain, boolean domainKnown, long hitsAddend, List<DescriptorExplanation> descriptors) {
  public Explanation {
    Objects.requireNonNull(domain, "domain");
    descriptors = List.copyOf(descriptors);
  }
}
