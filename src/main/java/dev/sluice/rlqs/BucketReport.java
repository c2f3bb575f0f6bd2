package dev.sluice.rlqs;

import dev.sluice.rules.Match;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleSet;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Says in one line which rule an RLQS bucket map reaches and what its Envoys are assigned, for
 * {@code sluice check --bucket}: the same match and plan the service uses. Pure.
 */
public final class BucketReport {
  private BucketReport() {}

  /**
   * For example {@code bucket {env=prod, name=api} -> edge.name_api.env_prod (100 per second,
   * fixed_window): token buckets, max-min fair shares of 100.0/s}.
   *
   * @param nowMillis picks the length of a calendar window
   */
  public static String describe(
      RuleSet rules, String domain, Map<String, String> bucket, long nowMillis) {
    Optional<Match> match = BucketMatch.find(rules, domain, bucket);
    BucketPlan plan = BucketPlan.of(match, nowMillis);
    String reached =
        match
            .map(Match::rule)
            .map(rule -> rule.id() + limits(rule))
            .orElse(rules.hasDomain(domain) ? "no rule" : "no rule (unknown domain)");
    String assigned;
    if (plan instanceof BucketPlan.Divided divided) {
      assigned = "token buckets, max-min fair shares of " + divided.limitPerSecond() + "/s";
    } else {
      Assignment blanket = ((BucketPlan.Blanket) plan).assignment();
      assigned = blanket instanceof Assignment.DenyAll ? "DENY_ALL" : "ALLOW_ALL";
    }
    return "bucket " + new TreeMap<>(bucket) + " -> " + reached + ": " + assigned;
  }

  private static String limits(Rule rule) {
    if (rule.unlimited()) {
      return " (unlimited)";
    }
    if (rule.shadowMode()) {
      return " (shadow mode)";
    }
    return rule.limits().isEmpty() ? "" : " (" + rule.limits().get(0).limit().describe() + ")";
  }
}
