package dev.sluice.rules;

import java.util.List;
import java.util.Objects;

/**
 * One rule file: a domain and its top-level descriptors.
 *
 * @param source the file it came from, for operators
 */
public record DomainSpec(String domain, List<DescriptorSpec> descriptors, String source) {
  public DomainSpec {
    Objects.requireNonNull(domain, "domain");
    if (domain.isEmpty()) {
      throw new IllegalArgumentException("domain must not be empty in " + source);
    }
    descriptors = List.copyOf(descriptors);
    Objects.requireNonNull(source, "source");
  }
}
