package dev.sluice.limiter;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.Hit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A request planned by exactly the code {@link RateLimiter#decide} uses (matching, {@code
 * replaces}, overrides, counter keys, hits), without charging anything: for {@code sluice explain},
 * which must show the counter a request would really count against.
 */
public final class RequestPreview {
  private RequestPreview() {}

  /** What one descriptor would do. */
  public sealed interface Previewed {
    /** Nothing counted: no match, a node without rate_limit, or a rule another one replaced. */
    record NotLimited() implements Previewed {}

    /** An {@code unlimited: true} rule. */
    record Unlimited() implements Previewed {}

    /**
     * The hit the request would charge.
     *
     * @param override the limit is the client's override, not a rule's
     */
    record Counted(Hit hit, boolean override) implements Previewed {
      public Counted {
        Objects.requireNonNull(hit, "hit");
      }
    }
  }

  /**
   * @param overrideAlgorithm the algorithm of client overrides ({@code --default-algorithm})
   * @return one per descriptor, in request order; all {@link Previewed.NotLimited} when the domain
   *     is unknown
   */
  public static List<Previewed> of(
      RuleSet snapshot, RateLimitCall call, Algorithm overrideAlgorithm) {
    List<Previewed> previews = new ArrayList<>(call.descriptors().size());
    if (!snapshot.hasDomain(call.domain())) {
      call.descriptors().forEach(d -> previews.add(new Previewed.NotLimited()));
      return previews;
    }
    for (Plan plan : new Planner(overrideAlgorithm).plan(snapshot, call)) {
      if (plan instanceof Plan.Counted counted) {
        previews.add(
            new Previewed.Counted(counted.hit(), counted.metric() == Plan.MetricLabel.OVERRIDE));
      } else if (plan instanceof Plan.Unlimited) {
        previews.add(new Previewed.Unlimited());
      } else {
        previews.add(new Previewed.NotLimited());
      }
    }
    return previews;
  }
}
