package dev.sluice.tracing;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.config.TracingConfig;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.OtlpReceiver;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sluice with tracing on, exporting over OTLP/gRPC to a real receiver: a request that carries
 * Envoy's trace context gets a ShouldRateLimit span in that trace, under the caller's span, and a
 * store span under it.
 */
class TracingIT {
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String CALLER_SPAN = "00f067aa0ba902b7";
  private static final String RULES =
      """
      domain: edge
      descriptors:
        - key: user
          rate_limit: {name: per-user, unit: minute, requests_per_unit: 1}
      """;

  private OtlpReceiver receiver;
  private RunningSluice sluice;

  @BeforeEach
  void start() {
    receiver = OtlpReceiver.start();
    TracingConfig tracing =
        new TracingConfig(
            true,
            Optional.of("grpc"),
            Optional.of(receiver.endpoint()),
            Optional.of("sluice-test"),
            Optional.of("edge-ns"),
            Optional.of("instance-7"),
            Optional.of(1.0));
    sluice =
        RunningSluice.start(
            RULES,
            RunningSluice.config(RunningSluice.memoryStore()).toBuilder().tracing(tracing).build(),
            FakeClock.atEpochSecond(1_800_000_000L));
  }

  @AfterEach
  void stop() {
    sluice.close();
    receiver.close();
  }

  @Test
  void shouldRateLimit_withTraceparent_spanContinuesTheCallersTrace() {
    Metadata headers = new Metadata();
    headers.put(key("traceparent"), "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01");

    assertThat(call(headers, "alice-secret-value")).isEqualTo(Code.OK);
    assertThat(call(headers, "alice-secret-value")).isEqualTo(Code.OVER_LIMIT);
    List<Span> spans = flushedSpans(4);

    List<Span> decisions = named(spans, "ShouldRateLimit");
    assertThat(decisions).hasSize(2);
    for (Span decision : decisions) {
      assertThat(hex(decision.getTraceId())).isEqualTo(TRACE_ID);
      assertThat(hex(decision.getParentSpanId())).isEqualTo(CALLER_SPAN);
      assertThat(decision.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_SERVER);
      Map<String, AnyValue> attributes = attributes(decision);
      assertThat(attributes.get("ratelimit.domain").getStringValue()).isEqualTo("edge");
      assertThat(attributes.get("ratelimit.descriptors").getIntValue()).isEqualTo(1);
      assertThat(attributes.get("ratelimit.rules").getArrayValue().getValues(0).getStringValue())
          .isEqualTo("per-user");
    }
    assertThat(decisions)
        .extracting(d -> attributes(d).get("ratelimit.overall_code").getStringValue())
        .containsExactlyInAnyOrder("OK", "OVER_LIMIT");
    List<Span> stores = named(spans, "store acquire");
    assertThat(stores).hasSize(2);
    assertThat(stores)
        .extracting(s -> s.getParentSpanId())
        .containsExactlyInAnyOrderElementsOf(decisions.stream().map(Span::getSpanId).toList());
    assertThat(spans.toString()).doesNotContain("alice-secret-value");
    var resource = receiver.spans().get(0).resource().getAttributesList();
    assertThat(resource.toString())
        .contains("sluice-test")
        .contains("edge-ns")
        .contains("instance-7");
  }

  @Test
  void shouldRateLimit_withB3Headers_spanContinuesTheCallersTrace() {
    Metadata headers = new Metadata();
    headers.put(key("x-b3-traceid"), TRACE_ID);
    headers.put(key("x-b3-spanid"), CALLER_SPAN);
    headers.put(key("x-b3-sampled"), "1");

    assertThat(call(headers, "bob")).isEqualTo(Code.OK);

    Span decision = named(flushedSpans(2), "ShouldRateLimit").get(0);
    assertThat(hex(decision.getTraceId())).isEqualTo(TRACE_ID);
    assertThat(hex(decision.getParentSpanId())).isEqualTo(CALLER_SPAN);
  }

  @Test
  void shouldRateLimit_withoutTraceContext_startsANewTrace() {
    assertThat(call(new Metadata(), "carol")).isEqualTo(Code.OK);

    Span decision = named(flushedSpans(2), "ShouldRateLimit").get(0);
    assertThat(decision.getParentSpanId().isEmpty()).isTrue();
    assertThat(hex(decision.getTraceId())).isNotEqualTo(TRACE_ID);
  }

  private Code call(Metadata headers, String user) {
    return sluice
        .rls()
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
        .shouldRateLimit(request("edge", descriptor("user", user)))
        .getOverallCode();
  }

  /** Closing Sluice flushes the batch span processor, so every span has been sent. */
  private List<Span> flushedSpans(int expected) {
    sluice.close();
    Eventually.await(
        Duration.ofSeconds(10), expected + " spans", () -> receiver.spans().size() >= expected);
    return receiver.spans().stream().map(OtlpReceiver.Received::span).toList();
  }

  private static List<Span> named(List<Span> spans, String name) {
    return spans.stream().filter(s -> s.getName().equals(name)).toList();
  }

  private static Map<String, AnyValue> attributes(Span span) {
    return span.getAttributesList().stream()
        .collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue));
  }

  private static String hex(ByteString bytes) {
    return HexFormat.of().formatHex(bytes.toByteArray());
  }

  private static Metadata.Key<String> key(String name) {
    return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
  }
}
