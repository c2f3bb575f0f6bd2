package dev.sluice.tracing;

import java.util.List;

/**
 * The span of one RLQS server turn (the demand exchange and the push of changed assignments, once
 * per report interval): one span per interval per instance, whatever the traffic, never one per
 * report or request. Ends exactly once, by {@link #ended} or {@link #failed}.
 */
public interface RlqsTurnSpan {

  /**
   * What one turn did.
   *
   * @param domains the domains of the streams open, sorted, at most {@link #MAX_DOMAINS}
   * @param buckets buckets subscribed over all streams after the turn
   * @param assignmentsSent bucket actions the turn pushed (changed assignments and abandons)
   */
  record Turn(List<String> domains, int streams, long buckets, long assignmentsSent) {
    public static final int MAX_DOMAINS = 16;

    public Turn {
      domains = List.copyOf(domains.subList(0, Math.min(MAX_DOMAINS, domains.size())));
    }
  }

  /** Records what the turn did and ends the span. */
  void ended(Turn turn);

  /** Records the error the turn failed with and ends the span. */
  void failed(RuntimeException error);
}
