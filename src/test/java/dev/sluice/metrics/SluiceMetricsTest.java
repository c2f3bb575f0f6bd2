package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SluiceMetricsTest {
  private static final RuleCounts ONE = new RuleCounts(1, 0, 0, 1, 0, 0);

  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());

  @Test
  void retainRules_ruleRemovedByReload_itsSeriesLeaveMetrics() throws IOException {
    metrics.ruleOutcome("api", "kept", ONE);
    metrics.ruleOutcome("api", "removed", ONE);
    metrics.ruleOutcome("gone", "any", ONE);
    metrics.detailedRuleOutcome("api", "detailed", "user_alice", ONE);

    metrics.retainRules(Map.of("api", Set.of("kept")));

    String text = scrape();
    assertThat(text).contains("rule=\"kept\"");
    assertThat(text).doesNotContain("rule=\"removed\"", "domain=\"gone\"", "user_alice");
  }

  @Test
  void retainRules_removedRuleCountsAgain_startsFromZero() throws IOException {
    metrics.ruleOutcome("api", "back", new RuleCounts(5, 0, 0, 5, 0, 0));
    metrics.retainRules(Map.of());
    metrics.ruleOutcome("api", "back", ONE);

    assertThat(scrape()).contains("sluice_rule_hits_total{domain=\"api\",rule=\"back\"} 1.0");
  }

  @Test
  void retainRules_detailedSeriesOfServedRule_stays() throws IOException {
    metrics.detailedRuleOutcome("api", "detailed", "user_alice", ONE);
    metrics.retainRules(Map.of("api", Set.of("detailed")));

    assertThat(scrape()).contains("rule=\"user_alice\"");
  }

  private String scrape() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.writeText(out);
    return out.toString(StandardCharsets.UTF_8);
  }
}
