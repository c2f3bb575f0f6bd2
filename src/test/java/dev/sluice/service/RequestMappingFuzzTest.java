package dev.sluice.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sluice.config.HeaderConfig;
import dev.sluice.config.LimiterConfig;
import dev.sluice.config.RequestLimits;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.RateLimiter;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import io.grpc.Status;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayInputStream;
import java.util.concurrent.CompletableFuture;

/**
 * Arbitrary bytes as a ShouldRateLimit request, through the same parser and mapping as the gRPC
 * port and a real limiter on the memory store: the answer is a decision or INVALID_ARGUMENT, never
 * another exception. {@code mvn verify} replays the corpus under {@code
 * src/test/resources/dev/sluice/service/RequestMappingFuzzTestInputs/}; {@code JAZZER_FUZZ=1 mvn -P
 * fuzz -Dtest=RequestMappingFuzzTest test} fuzzes.
 */
class RequestMappingFuzzTest {
  private static final RuleSet RULES =
      InlineRules.load(
          """
          domain: api
          descriptors:
            - key: user
              rate_limit: {unit: minute, requests_per_unit: 5}
            - key: path
              value: /login
              descriptors:
                - key: ip
                  rate_limit: {unit: second, requests_per_unit: 2, algorithm: token_bucket}
          """);
  private static final FakeClock CLOCK = FakeClock.atEpochSecond(1_700_000_000L);
  private static final RateLimitGrpcService SERVICE = service();

  private static RateLimitGrpcService service() {
    SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
    RateLimiter limiter =
        new RateLimiter(
            () -> RULES,
            RateLimiter.StoreChoice.of(new InMemoryCounterStore(CLOCK, CLOCK)),
            LimiterConfig.defaults(),
            metrics);
    return new RateLimitGrpcService(limiter, RequestLimits.defaults(), HeaderConfig.off(), metrics);
  }

  @FuzzTest(maxDuration = "5m")
  void anyBytes_areADecisionOrInvalidArgument(byte[] bytes) {
    IncomingRequest incoming =
        IncomingRequest.method().parseRequest(new ByteArrayInputStream(bytes));
    if (incoming instanceof IncomingRequest.Parsed parsed) {
      CompletableFuture<Decision> decision = SERVICE.decide(parsed.request());
      decision
          .handle(
              (ok, failure) -> {
                if (failure != null) {
                  assertThat(RateLimitGrpcService.statusOf(failure).getCode())
                      .isEqualTo(Status.Code.INVALID_ARGUMENT);
                } else {
                  assertThat(ok.statuses()).hasSize(parsed.request().getDescriptorsCount());
                  SERVICE.toResponse(parsed.request(), ok);
                }
                return null;
              })
          .join();
    } else {
      assertThat(incoming).isInstanceOf(IncomingRequest.Unparseable.class);
    }
  }
}
