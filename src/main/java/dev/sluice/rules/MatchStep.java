package dev.sluice.rules;

import java.util.Objects;
import java.util.Optional;

/**
 * One candidate the matcher tried for one request entry, and what came of it.
 *
 * @param depth the level (0 = the request's first entry)
 * @param candidate which kind of descriptor was tried
 * @param configured the configured value (exact), the pattern (wildcard), or {@code ""} (key only)
 * @param rule the tried descriptor; empty when none is configured ({@link Outcome#NO_KEY}, {@link
 *     Outcome#NOT_CONFIGURED})
 */
public record MatchStep(
    int depth,
    Entry entry,
    Candidate candidate,
    String configured,
    Optional<Rule> rule,
    Outcome outcome) {

  public MatchStep {
    Objects.requireNonNull(entry, "entry");
    Objects.requireNonNull(candidate, "candidate");
    Objects.requireNonNull(configured, "configured");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(outcome, "outcome");
  }

  /** The three kinds of candidate, in the order they are tried at each level. */
  public enum Candidate {
    EXACT,
    WILDCARD,
    KEY_ONLY
  }

  public enum Outcome {
    /** No descriptor at this level has the entry's key: the branch ends here. */
    NO_KEY,
    /** No descriptor of this kind (exact value, key only) is configured for the key. */
    NOT_CONFIGURED,
    /** The wildcard pattern does not match the value. */
    PATTERN_MISMATCH,
    /** The request's last entry lands here and the descriptor ends a match: taken. */
    MATCHED,
    /** The last entry lands on an inner descriptor without rate_limit: skipped. */
    INNER_WITHOUT_RATE_LIMIT,
    /** More entries follow but the descriptor has no children: skipped. */
    NO_CHILDREN,
    /** More entries follow: the search goes into the descriptor's children. */
    DESCEND,
    /** The children could not take the remaining entries: back to the next candidate here. */
    BACKTRACK
  }
}
