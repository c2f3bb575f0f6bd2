package dev.sluice.rlqs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.config.RlqsConfig;
import dev.sluice.metrics.RlqsMetrics;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import dev.sluice.tracing.OtelTracing;
import dev.sluice.tracing.Tracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the service shows of itself besides metrics: the live page's snapshot and one span per
 * server turn. In-process gRPC on the caller's thread and a fake clock, as in {@link
 * RlqsServiceTest}.
 */
class RlqsObservedTest {
  private static final Duration INTERVAL = Duration.ofMillis(500);
  private static final String RULES =
      """
      domain: edge
      descriptors:
        - key: name
          value: api
          rate_limit: {unit: second, requests_per_unit: 100}
      """;

  private static final AttributeKey<Long> SENT =
      AttributeKey.longKey("sluice.rlqs.assignments_sent");

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final List<SpanData> spans = new CopyOnWriteArrayList<>();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(new Ended()).build();
  private RlqsService service;
  private InProcessRlqs served;

  private void start(Tracing tracing) throws IOException {
    RlqsMetrics rlqs = new SluiceMetrics(new PrometheusRegistry()).rlqs();
    RlqsConfig config = new RlqsConfig(true, INTERVAL, INTERVAL.multipliedBy(3), 100, 10);
    Quotas quotas = InProcessRlqs.quotasAlone(config, clock, rlqs);
    service =
        new RlqsService(
            new QuotaStream.Context(
                config, () -> InlineRules.load(RULES), quotas, clock, rlqs, new ReportTally()),
            tracing);
    served = InProcessRlqs.serve(service, clock, INTERVAL);
  }

  @AfterEach
  void stop() {
    if (served != null) {
      served.close();
    }
    provider.close();
  }

  private SimulatedEnvoy envoy(String bucket, double demand) {
    return served.envoy(bucket, demand);
  }

  private void steps(int count) {
    served.steps(count);
  }

  @Test
  void snapshot_twoEnvoysOverTheLimit_showsBucketsSharesAndReportedTotals() throws IOException {
    start(Tracing.off());
    assertThat(service.snapshot()).isEqualTo(new RlqsSnapshot(0, 0, List.of()));
    SimulatedEnvoy big = envoy("api", 120);
    SimulatedEnvoy small = envoy("api", 20);
    SimulatedEnvoy unmatched = envoy("nothing", 10);

    steps(10);

    RlqsSnapshot snapshot = service.snapshot();
    assertThat(snapshot.streams()).isEqualTo(3);
    assertThat(snapshot.buckets()).isEqualTo(3);
    assertThat(snapshot.rules())
        .extracting(RlqsSnapshot.RuleRow::rule)
        .containsExactly("_none", "name_api");
    RlqsSnapshot.RuleRow api = snapshot.rules().get(1);
    assertThat(api.domain()).isEqualTo("edge");
    assertThat(api.buckets()).isEqualTo(2);
    assertThat(api.limitPerSecond()).isEqualTo(100);
    assertThat(api.assignedPerSecond()).isCloseTo(100, within(5.0));
    long reported = big.admitted().stream().mapToLong(Long::longValue).sum();
    reported += small.admitted().stream().mapToLong(Long::longValue).sum();
    assertThat(api.allowed()).isEqualTo(reported);
    assertThat(api.denied()).isEqualTo(big.denied().stream().mapToLong(Long::longValue).sum());
    assertThat(api.denied()).isPositive();
    RlqsSnapshot.RuleRow none = snapshot.rules().get(0);
    assertThat(none.buckets()).isEqualTo(1);
    assertThat(none.limitPerSecond()).isZero();
    assertThat(none.allowed()).isEqualTo(unmatched.admitted().stream().mapToLong(l -> l).sum());
  }

  @Test
  void turn_tracingOn_oneSpanPerTurnWithDomainsBucketsAndAssignmentsSent() throws IOException {
    try (OtelTracing tracing =
        new OtelTracing(OpenTelemetrySdk.builder().setTracerProvider(provider).build(), () -> {})) {
      start(tracing);
      envoy("api", 120);
      envoy("api", 20);
      served.reportAll();

      // The first reports were answered before both demands were known; this turn pushes shares.
      service.turn();

      assertThat(spans).hasSize(1);
      SpanData turn = spans.get(0);
      assertThat(turn.getName()).isEqualTo("RLQS turn");
      assertThat(turn.getParentSpanContext().isValid()).isFalse();
      assertThat(turn.getAttributes().get(AttributeKey.stringArrayKey("ratelimit.domains")))
          .containsExactly("edge");
      assertThat(turn.getAttributes().get(AttributeKey.longKey("sluice.rlqs.streams")))
          .isEqualTo(2);
      assertThat(turn.getAttributes().get(AttributeKey.longKey("sluice.rlqs.buckets")))
          .isEqualTo(2);
      assertThat(turn.getAttributes().get(SENT)).isPositive();

      steps(6);
      assertThat(spans).hasSize(7);
      // Demands steady, shares settled: the last turn pushed nothing.
      assertThat(spans.get(6).getAttributes().get(SENT)).isZero();
    }
  }

  /** Keeps every span that ends. */
  private final class Ended implements SpanProcessor {
    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {}

    @Override
    public boolean isStartRequired() {
      return false;
    }

    @Override
    public void onEnd(ReadableSpan span) {
      spans.add(span.toSpanData());
    }

    @Override
    public boolean isEndRequired() {
      return true;
    }
  }
}
