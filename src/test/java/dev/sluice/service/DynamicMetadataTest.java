package dev.sluice.service;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.descriptorBuilder;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.UInt64Value;
import com.google.protobuf.util.JsonFormat;
import dev.sluice.config.HeaderConfig;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.RequestLimits;
import dev.sluice.config.ResponseSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor.RateLimitOverride;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.type.v3.RateLimitUnit;
import io.grpc.stub.StreamObserver;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The response's dynamic metadata, field by field as the reference builds it. */
class DynamicMetadataTest {
  private static final RuleSet RULES =
      InlineRules.load(
          """
          domain: shop
          descriptors:
            - key: tenant
              value: gold
              rate_limit: {unit: minute, requests_per_unit: 100}
              metadata:
                tier: gold
                upstream: {cluster: fast, weight: 3}
                tags: [a, b]
                enabled: yes
                none: null
            - key: tenant
              value: silver
              rate_limit: {unit: minute, requests_per_unit: 10}
              metadata:
                tier: silver
                upstream: {cluster: slow, zone: eu}
            - key: blocked
              rate_limit: {unit: minute, requests_per_unit: 0}
              metadata: {blocked: true}
            - key: free
              rate_limit: {unlimited: true}
              metadata: {free: true}
          """);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);

  private RateLimitResponse answer(HeaderConfig headers, RateLimitRequest request) {
    SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
    RateLimiter limiter =
        new RateLimiter(
            () -> RULES,
            RateLimiter.StoreChoice.of(new InMemoryCounterStore(clock, clock)),
            LimiterConfig.defaults(),
            metrics);
    RateLimitGrpcService service =
        new RateLimitGrpcService(limiter, RequestLimits.defaults(), headers, metrics);
    CompletableFuture<RateLimitResponse> answer = new CompletableFuture<>();
    service.shouldRateLimit(
        request,
        new StreamObserver<>() {
          @Override
          public void onNext(RateLimitResponse value) {
            answer.complete(value);
          }

          @Override
          public void onError(Throwable t) {
            answer.completeExceptionally(t);
          }

          @Override
          public void onCompleted() {}
        });
    return answer.join();
  }

  private RateLimitResponse answer(RateLimitRequest request) {
    return answer(
        HeaderConfig.from(
            SettingValues.builder().set(ResponseSettings.RESPONSE_DYNAMIC_METADATA, true).build()),
        request);
  }

  @Test
  void off_noDynamicMetadata() {
    assertThat(answer(HeaderConfig.off(), request("shop", descriptor("tenant", "gold"))))
        .matches(r -> !r.hasDynamicMetadata());
  }

  @Test
  void on_domainDescriptorsAddendsAndMergedMetadataOfPassingRules() throws Exception {
    RateLimitRequest request =
        request(
                "shop",
                descriptor("tenant", "gold"),
                descriptor("blocked", "x"),
                descriptorBuilder("tenant", "silver", "user", "u1")
                    .setHitsAddend(UInt64Value.of(2))
                    .build(),
                descriptorBuilder("tenant", "silver")
                    .setLimit(
                        RateLimitOverride.newBuilder()
                            .setRequestsPerUnit(7)
                            .setUnit(RateLimitUnit.HOUR))
                    .build(),
                descriptor("free", "y"))
            .toBuilder()
            .setHitsAddend(3)
            .build();

    Struct metadata = answer(request).getDynamicMetadata();

    // JsonFormat escapes '=' for HTML; unescaped here so the expected text reads as written.
    String json = JsonFormat.printer().omittingInsignificantWhitespace().print(metadata);
    assertThat(json.replace("\\u003d", "="))
        .isEqualTo(
            "{\"domain\":\"shop\",\"descriptors\":["
                + "{\"entries\":[\"tenant=gold\"]},"
                + "{\"entries\":[\"blocked=x\"]},"
                + "{\"entries\":[\"tenant=silver\",\"user=u1\"],\"hitsAddend\":2.0},"
                + "{\"entries\":[\"tenant=silver\"],\"limit\":\"requests_per_unit: 7 unit: HOUR\"},"
                + "{\"entries\":[\"free=y\"]}],"
                + "\"hitsAddend\":3.0,"
                + "\"metadata\":{\"tier\":\"gold\","
                + "\"upstream\":{\"cluster\":\"fast\",\"weight\":3.0},"
                + "\"tags\":[\"a\",\"b\"],\"enabled\":true,\"none\":null}}");
  }

  @Test
  void on_firstRuleOverLimit_laterRulesMetadataWins_nestedMapsMerge() {
    RateLimitRequest request =
        request(
            "shop",
            descriptorBuilder("tenant", "gold").setHitsAddend(UInt64Value.of(101)).build(),
            descriptor("tenant", "silver"));

    Struct merged =
        answer(request).getDynamicMetadata().getFieldsOrThrow("metadata").getStructValue();

    assertThat(merged.getFieldsOrThrow("tier").getStringValue()).isEqualTo("silver");
    assertThat(merged.getFieldsOrThrow("upstream").getStructValue().getFieldsMap())
        .containsOnlyKeys("cluster", "zone");
  }

  @Test
  void on_passingRulesShareAMap_firstValueWinsAndNestedKeysAreAdded() {
    RateLimitRequest request =
        request("shop", descriptor("tenant", "gold"), descriptor("tenant", "silver"));

    Struct merged =
        answer(request).getDynamicMetadata().getFieldsOrThrow("metadata").getStructValue();

    assertThat(merged.getFieldsOrThrow("tier").getStringValue()).isEqualTo("gold");
    Struct upstream = merged.getFieldsOrThrow("upstream").getStructValue();
    assertThat(upstream.getFieldsOrThrow("cluster").getStringValue()).isEqualTo("fast");
    assertThat(upstream.getFieldsOrThrow("zone").getStringValue()).isEqualTo("eu");
  }

  @Test
  void on_noPassingRuleWithMetadata_noMetadataField() {
    Struct metadata = answer(request("shop", descriptor("blocked", "x"))).getDynamicMetadata();

    assertThat(metadata.getFieldsMap()).containsOnlyKeys("domain", "descriptors");
  }
}
