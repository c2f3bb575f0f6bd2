package dev.sluice.consistency;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Split counting across real Sluice instances on one private redis-server: each live instance
 * enforces its share, and when one stops heartbeating the others re-split within seconds.
 */
class SplitConsistencyIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: 30, consistency: split}
      """;

  private static final Duration DEADLINE = Duration.ofSeconds(15);

  private final FakeClock clock = FakeClock.atEpochSecond(1_699_999_200L + 600);

  private RunningSluice start() {
    return RunningSluice.start(RULES, RunningSluice.redisStore(redis.uri()), clock);
  }

  private static int allowed(RunningSluice sluice, String user, int requests) {
    RateLimitRequest request = request("api", descriptor("user", user));
    int ok = 0;
    for (int i = 0; i < requests; i++) {
      ok += sluice.rls().shouldRateLimit(request).getOverallCode() == Code.OK ? 1 : 0;
    }
    return ok;
  }

  /** Waits until {@code sluice}'s {@code sluice_split_instances} gauge reads {@code expected}. */
  private static void awaitInstances(RunningSluice sluice, int expected) throws Exception {
    HttpRequest get =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sluice.httpPort() + "/metrics"))
            .build();
    HttpClient http = HttpClient.newHttpClient();
    String wanted = "sluice_split_instances " + expected + ".0";
    Eventually.await(
        DEADLINE,
        wanted,
        () -> http.send(get, HttpResponse.BodyHandlers.ofString()).body().contains(wanted));
    assertThat(http.send(get, HttpResponse.BodyHandlers.ofString()).body()).contains(wanted);
  }

  @Test
  void split_threeLiveInstances_eachEnforcesAThird_andReSplitsWhenOneStops() throws Exception {
    RunningSluice a = start();
    RunningSluice b = start();
    RunningSluice c = start();
    try {
      List<RunningSluice> all = List.of(a, b, c);
      for (RunningSluice sluice : all) {
        awaitInstances(sluice, 3);
      }
      assertThat(allowed(a, "alice", 15)).as("30 / 3").isEqualTo(10);
      assertThat(allowed(b, "alice", 15)).isEqualTo(10);

      c.close(); // stops heartbeating; its mark expires within 3 s
      awaitInstances(a, 2);
      awaitInstances(b, 2);

      assertThat(allowed(a, "bob", 20)).as("30 / 2").isEqualTo(15);
    } finally {
      a.close();
      b.close();
      c.close();
    }
  }
}
