package dev.sluice.refstats;

import java.util.List;

/**
 * The reference service's statsd names for Sluice's events: the per-rule stats under {@code
 * ratelimit.service.rate_limit.<domain>.<key>}, where the key is the rule's path ({@code key_value}
 * per level, {@code key} alone for a level without a value) as Sluice labels it, the service stats
 * under {@code ratelimit.service}, and the gRPC server's under {@code ratelimit_server.<method>}.
 */
final class ReferenceStatNames {
  static final String RULE_PREFIX = "ratelimit.service.rate_limit.";

  /** The per-rule stats, in {@link dev.sluice.metrics.RuleCounts} order. */
  static final List<String> RULE_STATS =
      List.of(
          "total_hits",
          "over_limit",
          "near_limit",
          "within_limit",
          "shadow_mode",
          "over_limit_with_local_cache");

  static final String CONFIG_LOAD_SUCCESS = "ratelimit.service.config_load_success";
  static final String CONFIG_LOAD_ERROR = "ratelimit.service.config_load_error";
  static final String GLOBAL_SHADOW_MODE = "ratelimit.service.global_shadow_mode";
  static final String REDIS_ERROR = "ratelimit.service.call.should_rate_limit.redis_error";
  static final String SERVICE_ERROR = "ratelimit.service.call.should_rate_limit.service_error";

  /** The one gRPC method Sluice reports, as the reference's server interceptor names it. */
  static final String METHOD = "ShouldRateLimit";

  static final String TOTAL_REQUESTS = "ratelimit_server." + METHOD + ".total_requests";
  static final String RESPONSE_TIME = "ratelimit_server." + METHOD + ".response_time";

  private ReferenceStatNames() {}

  /**
   * {@code ratelimit.service.rate_limit.<domain>.<rule>.<stat>}, the key cleaned as the reference
   * cleans it.
   *
   * @param rule the rule label of the {@code sluice_rule_*} series, e.g. {@code
   *     httproute/default/r/rule/0/match/0/x_httproute/default/r/rule/0/match/0/x.rule-0-match-0_rule-0-match-0}
   */
  static String rule(String domain, String rule, String stat) {
    return RULE_PREFIX + StatsdNames.sanitize(domain + "." + rule) + "." + stat;
  }

  /** {@code ratelimit.service.rate_limit.<domain>.domain_not_found}. */
  static String domainNotFound(String domain) {
    return RULE_PREFIX + StatsdNames.sanitize(domain) + ".domain_not_found";
  }
}
