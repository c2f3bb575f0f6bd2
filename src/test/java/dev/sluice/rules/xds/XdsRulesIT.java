package dev.sluice.rules.xds;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.XdsConfig;
import dev.sluice.rules.xds.v3.RateLimitConfig;
import dev.sluice.rules.xds.v3.RateLimitDescriptor;
import dev.sluice.rules.xds.v3.RateLimitPolicy;
import dev.sluice.rules.xds.v3.RateLimitUnit;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import dev.sluice.testing.TestAdsServer;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sluice on rules from a real ADS management server: a config, an update, an invalid one, the
 * server going away and coming back; each step checked through the RLS API and the ACK/NACK the
 * server receives.
 */
class XdsRulesIT {
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final FakeClock clock = FakeClock.atEpochSecond(1_800_000_000L);
  private TestAdsServer ads;
  private RunningSluice sluice;

  @BeforeEach
  void start() {
    ads = TestAdsServer.start(XdsRuleClient.TYPE_URL);
    XdsConfig xds =
        XdsConfig.plaintext(ads.target()).toBuilder()
            .backoff(new XdsConfig.Backoff(Duration.ofMillis(50), Duration.ofMillis(200), 0.5))
            .build();
    sluice =
        RunningSluice.start(
            "domain: from-files\n",
            RunningSluice.config(RunningSluice.memoryStore()).toBuilder().ruleSource(xds).build(),
            clock);
  }

  @AfterEach
  void stop() {
    sluice.close();
    ads.close();
  }

  @Test
  void pushedRules_followEveryStepOfTheControlPlane() {
    DiscoveryRequest subscribe = ads.nextRequest(WAIT);
    assertThat(subscribe.getTypeUrl()).isEqualTo(XdsRuleClient.TYPE_URL);
    assertThat(subscribe.getNode().getId()).isEqualTo("default");
    assertThat(health()).isEqualTo(ServingStatus.NOT_SERVING);
    assertThat(code("from-files", "user", "alice")).isEqualTo(Code.OK);

    ads.push("v1", config("edge", limit("user", RateLimitUnit.MINUTE, 2)));
    DiscoveryRequest ack1 = ads.answerTo(ads.lastNonce(), WAIT);
    assertThat(ack1.getVersionInfo()).isEqualTo("v1");
    assertThat(ack1.hasErrorDetail()).isFalse();
    assertThat(codes("edge", "user", "alice", 3))
        .containsExactly(Code.OK, Code.OK, Code.OVER_LIMIT);
    Eventually.await(WAIT, "healthy once rules arrived", () -> health() == ServingStatus.SERVING);

    // An update that keeps the user rule: its counter goes on where it was.
    ads.push(
        "v2",
        config(
            "edge", limit("user", RateLimitUnit.MINUTE, 2), limit("team", RateLimitUnit.HOUR, 1)));
    assertThat(ads.answerTo(ads.lastNonce(), WAIT).getVersionInfo()).isEqualTo("v2");
    assertThat(code("edge", "user", "alice")).isEqualTo(Code.OVER_LIMIT);
    assertThat(codes("edge", "team", "a", 2)).containsExactly(Code.OK, Code.OVER_LIMIT);

    // An invalid snapshot: NACKed with the file loader's message, v2 keeps serving.
    ads.push(
        "v3",
        RateLimitConfig.newBuilder()
            .setName("broken")
            .setDomain("edge")
            .addDescriptors(
                RateLimitDescriptor.newBuilder()
                    .setKey("user")
                    .setRateLimit(RateLimitPolicy.newBuilder().setRequestsPerUnit(100)))
            .build());
    DiscoveryRequest nack = ads.answerTo(ads.lastNonce(), WAIT);
    assertThat(nack.getVersionInfo()).isEqualTo("v2");
    assertThat(nack.getErrorDetail().getMessage())
        .isEqualTo(
            "xds:broken: rate_limit has no unit; expected second, minute, hour, day, week,"
                + " month or year");
    assertThat(code("edge", "user", "alice")).isEqualTo(Code.OVER_LIMIT);
    assertThat(code("edge", "team", "b")).isEqualTo(Code.OK);

    // The server goes away: the last rules keep answering, health stays up.
    ads.stop();
    assertThat(code("edge", "user", "alice")).isEqualTo(Code.OVER_LIMIT);
    assertThat(code("edge", "user", "bob")).isEqualTo(Code.OK);
    assertThat(health()).isEqualTo(ServingStatus.SERVING);

    // It comes back with a new snapshot; Sluice reconnects, says what it serves, and follows.
    ads.push("v4", config("late", limit("k", RateLimitUnit.DAY, 1)));
    ads.restart();
    DiscoveryRequest resubscribe = ads.nextRequest(WAIT);
    assertThat(resubscribe.getVersionInfo()).isEqualTo("v2");
    assertThat(resubscribe.getResponseNonce()).isEmpty();
    assertThat(ads.answerTo(ads.lastNonce(), WAIT).getVersionInfo()).isEqualTo("v4");
    assertThat(codes("late", "k", "x", 2)).containsExactly(Code.OK, Code.OVER_LIMIT);
    assertThat(code("edge", "user", "alice")).isEqualTo(Code.OK);
  }

  private static RateLimitConfig config(String domain, RateLimitDescriptor... descriptors) {
    return RateLimitConfig.newBuilder()
        .setName(domain + "-config")
        .setDomain(domain)
        .addAllDescriptors(java.util.List.of(descriptors))
        .build();
  }

  private static RateLimitDescriptor limit(String key, RateLimitUnit unit, int requestsPerUnit) {
    return RateLimitDescriptor.newBuilder()
        .setKey(key)
        .setRateLimit(
            RateLimitPolicy.newBuilder().setUnit(unit).setRequestsPerUnit(requestsPerUnit))
        .build();
  }

  private Code code(String domain, String key, String value) {
    return sluice.rls().shouldRateLimit(request(domain, descriptor(key, value))).getOverallCode();
  }

  private java.util.List<Code> codes(String domain, String key, String value, int times) {
    java.util.List<Code> codes = new java.util.ArrayList<>();
    for (int i = 0; i < times; i++) {
      codes.add(code(domain, key, value));
    }
    return codes;
  }

  private ServingStatus health() {
    return HealthGrpc.newBlockingStub(sluice.channel())
        .withDeadlineAfter(5, java.util.concurrent.TimeUnit.SECONDS)
        .check(HealthCheckRequest.getDefaultInstance())
        .getStatus();
  }
}
