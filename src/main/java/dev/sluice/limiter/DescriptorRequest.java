package dev.sluice.limiter;

import dev.sluice.rules.Entry;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One descriptor of a request.
 *
 * @param hitsAddend the descriptor's own addend when the client sent one (0 = check only); empty
 *     means "use the request's addend"
 */
public record DescriptorRequest(
    List<Entry> entries, Optional<LimitOverride> override, OptionalLong hitsAddend) {
  public DescriptorRequest {
    entries = List.copyOf(entries);
    Objects.requireNonNull(override, "override");
    Objects.requireNonNull(hitsAddend, "hitsAddend");
    if (hitsAddend.isPresent() && hitsAddend.getAsLong() < 0) {
      throw new InvalidRequestException("hits_addend must be >= 0: " + hitsAddend.getAsLong());
    }
  }

  public static DescriptorRequest of(Entry... entries) {
    return new DescriptorRequest(List.of(entries), Optional.empty(), OptionalLong.empty());
  }

  public DescriptorRequest withOverride(LimitOverride limit) {
    return new DescriptorRequest(entries, Optional.of(limit), hitsAddend);
  }

  public DescriptorRequest withHitsAddend(long hits) {
    return new DescriptorRequest(entries, override, OptionalLong.of(hits));
  }
}
