package dev.sluice.limiter;

import java.util.List;
import java.util.Objects;

/**
 * The answer for a whole request.
 *
 * @param statuses one per request descriptor, in request order
 */
public record Decision(Code overall, List<DescriptorDecision> statuses) implements Answer {
  public Decision {
    Objects.requireNonNull(overall, "overall");
    statuses = List.copyOf(statuses);
  }
}
