package dev.sluice.rlqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.config.RlqsConfig;
import dev.sluice.metrics.RlqsMetrics;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.RuleSet;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaUsageReports;
import io.envoyproxy.envoy.type.v3.RateLimitStrategy;
import io.envoyproxy.envoy.type.v3.RateLimitStrategy.BlanketRule;
import io.grpc.Status;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The service over an in-process gRPC channel whose calls and responses run on the caller's thread,
 * on a fake clock: each step is one report interval of every simulated Envoy followed by the
 * server's turn, so the exchange is exact and needs no waiting.
 */
class RlqsServiceTest {
  private static final Duration INTERVAL = Duration.ofMillis(500);
  private static final String RULES =
      """
      domain: edge
      descriptors:
        - key: name
          value: api
          rate_limit: {unit: second, requests_per_unit: 100}
        - key: name
          value: closed
          rate_limit: {unit: second, requests_per_unit: 0}
        - key: name
          value: other
          rate_limit: {unit: second, requests_per_unit: 50}
      """;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final AtomicReference<RuleSet> rules = new AtomicReference<>(InlineRules.load(RULES));
  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
  private RlqsService service;
  private InProcessRlqs served;

  private void start(RlqsConfig config) throws IOException {
    RlqsMetrics rlqs = metrics.rlqs();
    Quotas quotas = InProcessRlqs.quotasAlone(config, clock, rlqs);
    service = new RlqsService(config, rules::get, quotas, clock, rlqs);
    served = InProcessRlqs.serve(service, clock, INTERVAL);
  }

  private void start() throws IOException {
    start(new RlqsConfig(true, INTERVAL, INTERVAL.multipliedBy(3), 100, 10));
  }

  @AfterEach
  void stop() {
    if (served != null) {
      served.close();
    }
  }

  private SimulatedEnvoy envoy(String bucket, double demand) {
    return served.envoy(bucket, demand);
  }

  private void steps(int count) {
    served.steps(count);
  }

  @Test
  void skewedDemand_maxMinShares_sumWithinLimit() throws IOException {
    start();
    SimulatedEnvoy big = envoy("api", 120);
    SimulatedEnvoy small = envoy("api", 20);
    SimulatedEnvoy medium = envoy("api", 60);

    steps(20);

    // 20 is under an equal third: met; 80 left for two that ask more: 40 each.
    assertThat(small.admittedRate(10)).isCloseTo(20, within(2.0));
    assertThat(big.admittedRate(10)).isCloseTo(40, within(4.0));
    assertThat(medium.admittedRate(10)).isCloseTo(40, within(4.0));
    assertThat(big.admittedRate(10) + small.admittedRate(10) + medium.admittedRate(10))
        .isLessThanOrEqualTo(100 * 1.01);
    String rule = "{domain=\"edge\",rule=\"name_api\"}";
    assertThat(Double.parseDouble(metric("sluice_rlqs_limit_rate" + rule))).isEqualTo(100);
    assertThat(Double.parseDouble(metric("sluice_rlqs_assigned_rate" + rule)))
        .isBetween(95.0, 100.0);
    assertThat(metric("sluice_rlqs_buckets")).isEqualTo("3.0");
    assertThat(Double.parseDouble(metric("sluice_rlqs_assignments_total{kind=\"token_bucket\"}")))
        .isGreaterThanOrEqualTo(3 * 19);
    assertThat(
            Double.parseDouble(
                metric(
                    "sluice_rlqs_reported_requests_total{domain=\"edge\",outcome=\"denied\","
                        + "rule=\"name_api\"}")))
        .isPositive();
  }

  @Test
  void clientLeaves_othersRebalanceWithinAFewReports() throws IOException {
    start();
    SimulatedEnvoy first = envoy("api", 120);
    SimulatedEnvoy second = envoy("api", 120);
    steps(10);
    assertThat(first.admittedRate(4)).isCloseTo(50, within(3.0));

    second.close();
    served.forget(second);
    // The new, larger bucket starts full (max_tokens, 0.2 s of the share), which a demand
    // 20 % over the share drains in 2 reports.
    steps(10);

    assertThat(first.admittedRate(4)).isCloseTo(100, within(5.0));
  }

  @Test
  void zeroRule_denyAll_unmatched_allowAll() throws IOException {
    start();
    SimulatedEnvoy closed = envoy("closed", 10);
    SimulatedEnvoy unmatched = envoy("nothing", 10);

    steps(3);

    assertThat(closed.strategy().map(RateLimitStrategy::getBlanketRule))
        .contains(BlanketRule.DENY_ALL);
    assertThat(unmatched.strategy().map(RateLimitStrategy::getBlanketRule))
        .contains(BlanketRule.ALLOW_ALL);
    assertThat(closed.admittedRate(1)).isZero();
  }

  @Test
  void reload_changedLimitReassigned_goneRuleAbandoned() throws IOException {
    start();
    SimulatedEnvoy api = envoy("api", 500);
    SimulatedEnvoy other = envoy("other", 500);
    steps(4);
    assertThat(api.strategy().orElseThrow().getTokenBucket().getTokensPerFill().getValue())
        .isEqualTo(100);

    rules.set(
        InlineRules.load(
            """
            domain: edge
            descriptors:
              - key: name
                value: api
                rate_limit: {unit: second, requests_per_unit: 200}
            """));
    clock.advance(INTERVAL);
    service.turn();

    assertThat(api.strategy().orElseThrow().getTokenBucket().getTokensPerFill().getValue())
        .isEqualTo(200);
    assertThat(other.abandons()).isEqualTo(1);
    assertThat(other.strategy()).isEmpty();
  }

  @Test
  void bucketNotReportedForATtl_abandoned() throws IOException {
    start();
    SimulatedEnvoy api = envoy("api", 10);
    steps(2);

    clock.advance(INTERVAL.multipliedBy(4));
    service.turn();

    assertThat(api.abandons()).isEqualTo(1);
  }

  @Test
  void malformedFirstReport_invalidArgument_otherStreamUntouched() throws IOException {
    start();
    SimulatedEnvoy good = envoy("api", 10);
    SimulatedEnvoy bad = envoy("api", 10);
    steps(2);

    bad.sendRaw(RateLimitQuotaUsageReports.newBuilder().setDomain("edge").build());
    SimulatedEnvoy noDomain = envoy("api", 10);
    noDomain.sendRaw(RateLimitQuotaUsageReports.getDefaultInstance());

    assertThat(bad.ended()).isEmpty(); // not its first report: a later empty one is ignored
    assertThat(noDomain.ended().map(Status::getCode)).contains(Status.Code.INVALID_ARGUMENT);
    assertThat(noDomain.ended().get().getDescription())
        .isEqualTo("the first report must name a domain");
    served.forget(noDomain);
    steps(2);
    assertThat(good.ended()).isEmpty();
    assertThat(good.strategy()).isPresent();
    assertThat(metric("sluice_rlqs_refused_total{reason=\"invalid_report\"}")).isEqualTo("1.0");
  }

  @Test
  void streamsOverTheCap_resourceExhausted() throws IOException {
    start(new RlqsConfig(true, INTERVAL, INTERVAL.multipliedBy(3), 2, 10));
    envoy("api", 10);
    envoy("api", 10);
    SimulatedEnvoy third = envoy("api", 10);
    steps(1);

    assertThat(third.ended().map(Status::getCode)).contains(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(third.ended().get().getDescription()).contains("--rlqs-max-streams");
    assertThat(metric("sluice_rlqs_refused_total{reason=\"max_streams\"}")).isEqualTo("1.0");
    assertThat(metric("sluice_rlqs_streams")).isEqualTo("2.0");
  }

  private String metric(String series) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.writeText(out);
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.startsWith(series + " ")) {
        return line.substring(series.length() + 1);
      }
    }
    return "absent";
  }
}
