package dev.sluice.tracing;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.config.RedisConfig;
import dev.sluice.config.StoreConfig;
import dev.sluice.config.TracingConfig;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.OtlpReceiver;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.RunningSluice;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;

/**
 * Requests that share one Redis pipeline (one connection; Redis paused with {@code CLIENT PAUSE}
 * while they arrive, so they queue behind the first and go out together) are exported, through a
 * real OTLP receiver, as one {@code redis pipeline} span per pipeline: each request's store span
 * links to exactly one pipeline span, every pipeline links back to exactly the requests it carried,
 * no request is in two pipelines, and at least one pipeline carried several requests.
 */
class TracingPipelineIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final String RULES =
      """
      domain: edge
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: 1000}
      """;
  private static final int REQUESTS = 12;

  @Test
  void sharedPipeline_isOneSpanLinkedFromEachRequestsStoreSpan() throws Exception {
    OtlpReceiver receiver = OtlpReceiver.start();
    TracingConfig tracing =
        new TracingConfig(
            true,
            Optional.of("grpc"),
            Optional.of(receiver.endpoint()),
            Optional.of("sluice-test"),
            Optional.empty(),
            Optional.empty(),
            Optional.of(1.0));
    StoreConfig oneConnection =
        StoreConfig.redis(
            RedisConfig.builder(redis.endpoint())
                .timeout(Duration.ofSeconds(3))
                .connections(1)
                .keyPrefix("")
                .build());
    RunningSluice sluice =
        RunningSluice.start(
            RULES,
            RunningSluice.config(oneConnection).toBuilder().tracing(tracing).build(),
            Clock.systemUTC());
    try {
      sluice.rls().shouldRateLimit(request("edge", descriptor("user", "warm-up")));
      try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
        jedis.sendCommand(Protocol.Command.CLIENT, "PAUSE", "700", "ALL");
      }
      sendConcurrently(sluice);
    } finally {
      sluice.close(); // flushes the spans
    }
    Eventually.await(
        Duration.ofSeconds(10),
        "the store spans",
        () -> named(spans(receiver), "store acquire").size() >= REQUESTS + 1);
    List<Span> all = spans(receiver);
    receiver.close();

    List<Span> stores = named(all, "store acquire");
    List<Span> pipelines = named(all, "redis pipeline");
    Map<ByteString, Span> pipelineById = new HashMap<>();
    pipelines.forEach(p -> pipelineById.put(p.getSpanId(), p));
    Map<ByteString, Set<ByteString>> carried = new HashMap<>();
    for (Span store : stores) {
      assertThat(store.getLinksList()).as("one link per store span").hasSize(1);
      ByteString pipeline = store.getLinks(0).getSpanId();
      assertThat(pipelineById).as("the linked pipeline span was exported").containsKey(pipeline);
      carried.computeIfAbsent(pipeline, p -> new HashSet<>()).add(store.getSpanId());
    }
    Set<ByteString> seen = new HashSet<>();
    for (Span pipeline : pipelines) {
      Set<ByteString> links = new HashSet<>();
      pipeline.getLinksList().forEach(l -> links.add(l.getSpanId()));
      assertThat(links).isEqualTo(carried.get(pipeline.getSpanId()));
      assertThat(intAttribute(pipeline, "sluice.pipeline.requests"))
          .isGreaterThanOrEqualTo(links.size());
      for (ByteString link : links) {
        assertThat(seen.add(link)).as("a request in two pipelines").isTrue();
      }
      // Exported in the trace of one request it carried, under that request's store span.
      assertThat(links).contains(pipeline.getParentSpanId());
    }
    assertThat(seen).hasSize(stores.size());
    assertThat(pipelines.size()).isLessThan(stores.size());
    assertThat(pipelines).anySatisfy(p -> assertThat(p.getLinksCount()).isGreaterThan(1));
  }

  /** {@link #REQUESTS} requests at once, each in a trace of its own. */
  private static void sendConcurrently(RunningSluice sluice) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(REQUESTS);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> calls = new ArrayList<>();
    for (int i = 0; i < REQUESTS; i++) {
      Metadata headers = new Metadata();
      headers.put(
          Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER),
          String.format("00-%032x-%016x-01", 1000 + i, 77 + i));
      int user = i;
      calls.add(
          pool.submit(
              () -> {
                go.await();
                return sluice
                    .rls()
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                    .shouldRateLimit(request("edge", descriptor("user", "u" + user)));
              }));
    }
    go.countDown();
    for (Future<?> call : calls) {
      call.get();
    }
    pool.shutdown();
  }

  private static List<Span> spans(OtlpReceiver receiver) {
    return receiver.spans().stream().map(OtlpReceiver.Received::span).toList();
  }

  private static List<Span> named(List<Span> spans, String name) {
    return spans.stream().filter(s -> s.getName().equals(name)).toList();
  }

  private static long intAttribute(Span span, String key) {
    return span.getAttributesList().stream()
        .filter(a -> a.getKey().equals(key))
        .map(KeyValue::getValue)
        .findFirst()
        .orElseThrow()
        .getIntValue();
  }
}
