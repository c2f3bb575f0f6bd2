package dev.sluice.limiter;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.Hit;
import java.util.ArrayList;
import java.util.List;

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
     * The hits the request would charge: one per limit ({@code rate_limits} has several).
     *
     * @param override the limit is the client's override, not a rule's
     */
    record Counted(List<Hit> hits, boolean override) implements Previewed {
      public Counted {
        hits = List.copyOf(hits);
        if (hits.isEmpty()) {
          throw new IllegalArgumentException("a counted descriptor charges at least one hit");
        }
      }

      /** The first (for {@code rate_limit}, the only) hit. */
      public Hit hit() {
        return hits.get(0);
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
    // Whether denied hits are charged changes no key, so the preview needs no setting for it.
    for (Plan plan :
        new Planner(overrideAlgorithm, true, Plan.RequestVotes.of(false, false))
            .plan(snapshot, call)) {
      if (plan instanceof Plan.Counted counted) {
        previews.add(
            new Previewed.Counted(
                counted.hits(), counted.first().metric() == Plan.MetricLabel.OVERRIDE));
      } else if (plan instanceof Plan.Unlimited) {
        previews.add(new Previewed.Unlimited());
      } else {
        previews.add(new Previewed.NotLimited());
      }
    }
    return previews;
  }
}
