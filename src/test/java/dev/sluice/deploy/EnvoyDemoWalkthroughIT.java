package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The README's "Run the demo with Envoy" walkthrough without Docker: the requests of each step go
 * through {@link EnvoyRateLimitFilter} (the actions of {@code envoy/envoy.yaml}) to a real Sluice
 * serving {@code config/rules}, and get the answers the README promises. As in the README, every
 * step starts at the beginning of a minute, and "quick" requests take no time on the fake clock.
 */
class EnvoyDemoWalkthroughIT {
  private static final String CLIENT = "203.0.113.7";
  private static final String OTHER_CLIENT = "198.51.100.9";
  private static final String PER_IP = "20;w=60;name=\"per-ip\"";

  /** The start of a minute. */
  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_040L);

  private final RunningSluice sluice = RunningSluice.onRulesAt(Path.of("config/rules"), clock);
  private final EnvoyRateLimitFilter envoy = new EnvoyRateLimitFilter(EnvoyConfig.load());

  @AfterEach
  void stop() {
    sluice.close();
  }

  @Test
  void perIp_21stRequestInAMinute_is429() {
    RateLimitResponse first = send(ClientRequest.get(CLIENT, "/"));
    List<Integer> rest = statuses(ClientRequest.get(CLIENT, "/"), 21);

    assertThat(httpStatus(first)).isEqualTo(200);
    assertThat(rest.subList(0, 19)).containsOnly(200);
    assertThat(rest.subList(19, 21)).containsOnly(429);
    assertThat(XRateLimitHeaders.of(first))
        .contains(new XRateLimitHeaders("20, " + PER_IP, 19, 60));
    assertThat(httpStatus(send(ClientRequest.get(OTHER_CLIENT, "/")))).isEqualTo(200);
    clock.advance(Duration.ofMinutes(1));
    assertThat(httpStatus(send(ClientRequest.get(CLIENT, "/")))).isEqualTo(200);
  }

  @Test
  void apiKeys_fiveQuickRequestsPass_thenTwo429s_monitoringKeyNeverLimited() {
    ClientRequest alice = ClientRequest.get(CLIENT, "/").withHeader("x-api-key", "alice");
    ClientRequest monitoring = ClientRequest.get(CLIENT, "/").withHeader("x-api-key", "monitoring");

    RateLimitResponse first = send(alice);
    List<Integer> quick = statuses(alice, 6);
    RateLimitResponse firstMonitoring = send(monitoring);

    assertThat(httpStatus(first)).isEqualTo(200);
    assertThat(quick).containsExactly(200, 200, 200, 200, 429, 429);
    assertThat(XRateLimitHeaders.of(first))
        .contains(new XRateLimitHeaders("2, " + PER_IP + ", 2;w=1;name=\"per-api-key\"", 4, 0));
    assertThat(httpStatus(firstMonitoring)).isEqualTo(200);
    assertThat(Integer.toUnsignedLong(firstMonitoring.getStatuses(1).getLimitRemaining()))
        .isEqualTo(4_294_967_295L);
    assertThat(statuses(monitoring, 9)).containsOnly(200);
  }

  @Test
  void apiKeys_bucketRefillsTwoTokensASecond_eachKeyHasItsOwn() {
    ClientRequest alice = ClientRequest.get(CLIENT, "/").withHeader("x-api-key", "alice");
    statuses(alice, 6);

    assertThat(statuses(ClientRequest.get(CLIENT, "/").withHeader("x-api-key", "bob"), 1))
        .containsExactly(200);
    clock.advance(Duration.ofMillis(500));
    assertThat(statuses(alice, 2)).containsExactly(200, 429);
  }

  @Test
  void orderWrites_sixthPostInAMinute_is429_readsStillPass() {
    List<RateLimitResponse> posts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      posts.add(send(ClientRequest.post(CLIENT, "/api/orders")));
    }

    assertThat(posts.stream().map(EnvoyDemoWalkthroughIT::httpStatus))
        .containsExactly(200, 200, 200, 200, 200, 429);
    assertThat(XRateLimitHeaders.of(posts.get(4)))
        .contains(
            new XRateLimitHeaders(
                "5, " + PER_IP + ", 5;w=60;name=\"order-writes\", 10;w=60;name=\"per-ip-trial\"",
                0,
                60));
    assertThat(statuses(ClientRequest.get(CLIENT, "/api/orders"), 1)).containsExactly(200);
  }

  @Test
  void orderWrites_queryString_countsUnderTheApiWildcardInstead() {
    List<Integer> codes = statuses(ClientRequest.post(CLIENT, "/api/orders?page=2"), 6);

    assertThat(codes).containsOnly(200);
  }

  @Test
  void shadowRule_passesItsLimit_neverCausesA429() {
    List<RateLimitResponse> answers = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      answers.add(send(ClientRequest.get(CLIENT, "/api/catalog")));
    }
    DescriptorStatus eleventhShadow = answers.get(10).getStatuses(2);

    assertThat(answers).allSatisfy(answer -> assertThat(httpStatus(answer)).isEqualTo(200));
    assertThat(eleventhShadow.getCode()).isEqualTo(Code.OK);
    assertThat(eleventhShadow.getCurrentLimit().getName()).isEqualTo("per-ip-trial");
    assertThat(eleventhShadow.getLimitRemaining()).isZero();
    assertThat(XRateLimitHeaders.of(answers.get(10)))
        .contains(
            new XRateLimitHeaders(
                "10, " + PER_IP + ", 100;w=60, 10;w=60;name=\"per-ip-trial\"", 0, 60));
  }

  private RateLimitResponse send(ClientRequest request) {
    return sluice
        .rls()
        .shouldRateLimit(
            envoy
                .request(request)
                .orElseThrow(() -> new AssertionError("Envoy would not call Sluice: " + request)));
  }

  private List<Integer> statuses(ClientRequest request, int times) {
    List<Integer> codes = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      codes.add(httpStatus(send(request)));
    }
    return codes;
  }

  /** Envoy's reply: 429 on OVER_LIMIT (the filter's default rate_limited_status), else upstream. */
  private static int httpStatus(RateLimitResponse response) {
    return response.getOverallCode() == Code.OVER_LIMIT ? 429 : 200;
  }
}
