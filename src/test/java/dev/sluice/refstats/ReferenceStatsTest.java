package dev.sluice.refstats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.metrics.RuleCounts;
import dev.sluice.metrics.SluiceMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReferenceStatsTest {
  private static final String EG_KEY1 =
      "httproute/default/http-ratelimit/rule/0/match/0/ratelimit_example"
          + "_httproute/default/http-ratelimit/rule/0/match/0/ratelimit_example";
  private static final String EG_RULE = EG_KEY1 + ".rule-0-match-0_rule-0-match-0";

  private final ReferenceStats stats =
      ReferenceStats.create(Optional.empty(), false, new PrometheusRegistry());
  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry(), stats);

  private String reference() {
    return new String(stats.scrape(), StandardCharsets.UTF_8);
  }

  private String sluice() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.writeText(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void ruleOutcome_countedUnderTheReferenceNames() {
    metrics.ruleOutcome("default/eg/http", EG_RULE, new RuleCounts(3, 0, 1, 3, 0, 0));
    metrics.ruleOutcome("default/eg/http", EG_RULE, new RuleCounts(2, 2, 0, 0, 0, 0));
    metrics.ruleOutcome("rl", "foo", new RuleCounts(1, 0, 0, 1, 0, 0));

    String labels =
        "{domain=\"default/eg/http\",key1=\""
            + EG_KEY1
            + "\",key2=\"rule-0-match-0_rule-0-match-0\"}";
    assertThat(reference())
        .contains("# TYPE ratelimit_service_rate_limit_total_hits counter\n")
        .contains("ratelimit_service_rate_limit_total_hits" + labels + " 5\n")
        .contains("ratelimit_service_rate_limit_over_limit" + labels + " 2\n")
        .contains("ratelimit_service_rate_limit_near_limit" + labels + " 1\n")
        .contains("ratelimit_service_rate_limit_within_limit" + labels + " 3\n")
        .contains("ratelimit_service_rate_limit_total_hits{domain=\"rl\",key1=\"foo\"} 1\n")
        // Never-counted stats are absent, as the reference sends no zero counts.
        .doesNotContain("ratelimit_service_rate_limit_over_limit{domain=\"rl\"")
        .doesNotContain("shadow_mode");
  }

  @Test
  void requests_totalErrorsAndLatency() {
    metrics.request("OK", 2_000_000);
    metrics.request("OVER_LIMIT", 1_000_000);
    metrics.request("INVALID_ARGUMENT", 0);
    metrics.request("UNAVAILABLE", 3_000_000);
    metrics.failurePolicyDecision("allow");

    assertThat(reference())
        .contains("ratelimit_service_total_requests{grpc_method=\"ShouldRateLimit\"} 4\n")
        .contains(
            "ratelimit_service_should_rate_limit_error{err_type=\"service_error\"} 1\n",
            "ratelimit_service_should_rate_limit_error{err_type=\"redis_error\"} 2\n")
        .contains("# TYPE ratelimit_service_response_time_seconds histogram\n")
        .contains(
            "ratelimit_service_response_time_seconds_bucket{grpc_method=\"ShouldRateLimit\",le=\"0.005\"} 4\n")
        .contains(
            "ratelimit_service_response_time_seconds_count{grpc_method=\"ShouldRateLimit\"} 4\n")
        .contains(
            "ratelimit_service_response_time_seconds_sum{grpc_method=\"ShouldRateLimit\"} 0.006\n");
  }

  @Test
  void configLoads_startupAndReloads() {
    metrics.initialRulesLoaded(1, 1);
    metrics.reloaded(1, 2);
    metrics.reloadRejected();

    assertThat(reference())
        .contains("ratelimit_service_config_load_success 2\n")
        .contains("ratelimit_service_config_load_error 1\n");
  }

  @Test
  void unmappedStats_keepTheirEscapedNames() throws IOException {
    metrics.domainNotFound("default/eg/http");
    metrics.globalShadowMode();
    metrics.ruleOutcome("rl", "foo", new RuleCounts(2, 2, 0, 0, 0, 2));

    assertThat(reference())
        .contains("ratelimit_service_rate_limit_default_eg_http_domain_not_found 1\n")
        .contains("ratelimit_service_global_shadow_mode 1\n")
        .contains("ratelimit_service_rate_limit_rl_foo_over_limit_with_local_cache 2\n")
        .contains("process_resident_memory_bytes");
    assertThat(sluice()).contains("sluice_domain_not_found_total{domain=\"default/eg/http\"} 1");
  }

  @Test
  void detailedRuleOutcome_underTheSameCappedPathAsSluice() throws IOException {
    metrics.detailedRuleOutcome("rl", "user", "user_alice", new RuleCounts(1, 0, 0, 1, 0, 0));

    assertThat(reference())
        .contains("ratelimit_service_rate_limit_total_hits{domain=\"rl\",key1=\"user_alice\"} 1\n");
    assertThat(sluice()).contains("sluice_rule_hits_total{domain=\"rl\",rule=\"user_alice\"} 1");
  }
}
