package dev.sluice.embed;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer for a whole request, as a server would give it to Envoy.
 *
 * @param overLimit true when at least one descriptor is over its limit (and not in shadow mode)
 * @param statuses one per request descriptor, in request order
 */
public record Decision(boolean overLimit, List<Status> statuses) {
  public Decision {
    statuses = List.copyOf(statuses);
  }

  /** The opposite of {@link #overLimit}: the caller may go ahead. */
  public boolean allowed() {
    return !overLimit;
  }

  /**
   * The answer for one descriptor.
   *
   * @param overLimit this descriptor is over its limit
   * @param limit the limit that governed it; empty when no rule counted it (unknown domain, no
   *     matching rule, an unlimited rule)
   * @param remaining hits (whole tokens for a token bucket) left after this request; 0 when not
   *     counted, 4294967295 for an unlimited rule
   * @param untilReset until the window resets (fixed window) or the bucket is full again (token
   *     bucket); empty when not counted
   */
  public record Status(
      boolean overLimit, Optional<Limit> limit, long remaining, Optional<Duration> untilReset) {
    public Status {
      Objects.requireNonNull(limit, "limit");
      Objects.requireNonNull(untilReset, "untilReset");
    }
  }

  /**
   * A configured limit.
   *
   * @param name the rule's {@code rate_limit.name}; {@code ""} when unnamed
   * @param requestsPerUnit hits allowed per {@code unit}
   * @param unit {@code second}, {@code minute}, {@code hour}, {@code day}, {@code week}, {@code
   *     month} or {@code year}
   * @param algorithm {@code fixed_window} or {@code token_bucket}, as in the rule files
   */
  public record Limit(String name, long requestsPerUnit, String unit, String algorithm) {
    public Limit {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(unit, "unit");
      Objects.requireNonNull(algorithm, "algorithm");
    }
  }
}
