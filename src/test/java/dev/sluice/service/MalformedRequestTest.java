package dev.sluice.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.config.HeaderConfig;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.RequestLimits;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import dev.sluice.testing.RlsRequests;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ClientCalls;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Bytes that are not a valid RateLimitRequest, sent as they are over a real (in-process) gRPC call:
 * before, grpc-java answered UNKNOWN "Application error processing RPC" and logged a stack trace
 * for every such request.
 */
class MalformedRequestTest {
  private static final byte[] INVALID_UTF8 = {(byte) 0xC3, (byte) 0x28, (byte) 0xFF};

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final InMemoryCounterStore store = new InMemoryCounterStore(clock, clock);
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws IOException {
    SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
    RateLimiter limiter =
        new RateLimiter(
            () ->
                InlineRules.load(
                    """
                    domain: api
                    descriptors:
                      - key: user
                        rate_limit: {unit: minute, requests_per_unit: 5}
                    """),
            RateLimiter.StoreChoice.of(store),
            LimiterConfig.defaults(),
            metrics);
    RateLimitGrpcService service =
        new RateLimitGrpcService(limiter, RequestLimits.defaults(), HeaderConfig.off(), metrics);
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).addService(service.definition()).build().start();
    channel = InProcessChannelBuilder.forName(name).build();
    logged.start();
    root.addAppender(logged);
  }

  @AfterEach
  void stop() {
    root.detachAppender(logged);
    channel.shutdownNow();
    server.shutdownNow();
    store.close();
  }

  @Test
  void shouldRateLimit_invalidUtf8InDomain_isInvalidArgumentAndLogsNothing() {
    byte[] request = concat(field(1, INVALID_UTF8), field(2, descriptor("user", "alice")));

    assertThatThrownBy(() -> send(request))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription())
                  .isEqualTo(
                      "request is not a valid RateLimitRequest: Protocol message had invalid"
                          + " UTF-8.");
            });
    assertThat(logged.list).isEmpty();
  }

  @Test
  void shouldRateLimit_invalidUtf8InKeyOrValue_isInvalidArgument() {
    byte[] badKey = concat(field(1, utf8("api")), field(2, entry(INVALID_UTF8, utf8("alice"))));
    byte[] badValue = concat(field(1, utf8("api")), field(2, entry(utf8("user"), INVALID_UTF8)));

    for (byte[] request : new byte[][] {badKey, badValue}) {
      assertThatThrownBy(() -> send(request))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
    }
    assertThat(logged.list).isEmpty();
  }

  @Test
  void shouldRateLimit_validBytesThroughTheLenientParser_areAnswered() throws Exception {
    RateLimitRequest valid = RlsRequests.request("api", RlsRequests.descriptor("user", "alice"));

    RateLimitResponse response = RateLimitResponse.parseFrom(send(valid.toByteArray()));

    assertThat(response.getOverallCode()).isEqualTo(RateLimitResponse.Code.OK);
    assertThat(response.getStatuses(0).getLimitRemaining()).isEqualTo(4);
  }

  private byte[] send(byte[] request) {
    MethodDescriptor<byte[], byte[]> raw =
        RateLimitServiceGrpc.getShouldRateLimitMethod().toBuilder(RAW, RAW).build();
    return ClientCalls.blockingUnaryCall(
        channel, raw, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), request);
  }

  private static byte[] descriptor(String key, String value) {
    return entry(utf8(key), utf8(value));
  }

  /** A RateLimitDescriptor with one entry (field 1: key, field 2: value). */
  private static byte[] entry(byte[] key, byte[] value) {
    return field(1, concat(field(1, key), field(2, value)));
  }

  /** A length-delimited protobuf field: tag, length, bytes (all lengths here are < 128). */
  private static byte[] field(int number, byte[] payload) {
    byte[] out = new byte[payload.length + 2];
    out[0] = (byte) (number << 3 | 2);
    out[1] = (byte) payload.length;
    System.arraycopy(payload, 0, out, 2, payload.length);
    return out;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static final MethodDescriptor.Marshaller<byte[]> RAW =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };
}
