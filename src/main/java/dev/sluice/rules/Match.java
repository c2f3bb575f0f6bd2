package dev.sluice.rules;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of matching one request descriptor.
 *
 * @param rule the node reached by the request's last entry
 * @param counterEntries the entries that identify the counter: the request's own entries, except
 *     that levels matched by a {@code share_threshold} wildcard carry the pattern instead of the
 *     request value so all matching values share one counter
 */
public record Match(Rule rule, List<Entry> counterEntries) {
  public Match {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(counterEntries, "counterEntries");
  }
}
