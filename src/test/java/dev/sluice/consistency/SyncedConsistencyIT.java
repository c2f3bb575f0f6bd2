package dev.sluice.consistency;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConsistencyConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.rules.Consistency;
import dev.sluice.store.algorithm.FixedWindow;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Synced counting across real Sluice instances on one private redis-server: no hit is lost, exact
 * and synced instances share one counter, and deltas counted while Redis is down reach it when it
 * is back. Windows come from a fake clock (fixed for the test); syncs run on the real scheduler.
 */
class SyncedConsistencyIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: 1000000}
      """;

  private static final Duration DEADLINE = Duration.ofSeconds(15);
  private static final Duration INTERVAL = Duration.ofMillis(100);

  /** 10 minutes into an hour: the window cannot end during the test. */
  private final FakeClock clock = FakeClock.atEpochSecond(1_699_999_200L + 600);

  private RunningSluice start(Consistency consistency) {
    return start(consistency, INTERVAL);
  }

  private RunningSluice start(Consistency consistency, Duration interval) {
    ServeConfig config =
        RunningSluice.config(RunningSluice.redisStore(redis.uri())).toBuilder()
            .consistency(
                new ConsistencyConfig(
                    consistency, interval, ConsistencyConfig.DEFAULT_SYNC_MAX_COUNTERS))
            .build();
    return RunningSluice.start(RULES, config, clock);
  }

  /** The Redis count of {@code user}'s current window, the exact mode's own key. */
  private long redisCount(String user) {
    return redisCount(user, FixedWindow.index(clock.millis(), Duration.ofHours(1).toMillis()));
  }

  private long redisCount(String user, long index) {
    try (Jedis jedis = redis.client()) {
      String value = jedis.get("fw|3600|api|user=" + user + "|" + index);
      return value == null ? 0 : Long.parseLong(value);
    }
  }

  /** {@code perThread} requests from each of {@code threads} threads per instance, at once. */
  private static long send(List<RunningSluice> instances, String user, int threads, int perThread)
      throws Exception {
    RateLimitRequest request = request("api", descriptor("user", user));
    ExecutorService pool = Executors.newFixedThreadPool(instances.size() * threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Integer>> sent = new ArrayList<>();
    try {
      for (RunningSluice sluice : instances) {
        for (int t = 0; t < threads; t++) {
          sent.add(
              pool.submit(
                  () -> {
                    go.await();
                    int ok = 0;
                    for (int i = 0; i < perThread; i++) {
                      ok +=
                          sluice.rls().shouldRateLimit(request).getOverallCode() == Code.OK ? 1 : 0;
                    }
                    return ok;
                  }));
        }
      }
      go.countDown();
      long total = 0;
      for (Future<Integer> f : sent) {
        total += f.get();
      }
      return total;
    } finally {
      pool.shutdownNow();
    }
  }

  private static void awaitEquals(long expected, LongSupplier actual) {
    Eventually.await(DEADLINE, "the value " + expected, () -> actual.getAsLong() == expected);
  }

  @Test
  void synced_threeInstances_redisHoldsExactlyTheHitsSent_afterSyncAndAfterShutdown()
      throws Exception {
    RunningSluice a = start(Consistency.SYNCED);
    RunningSluice b = start(Consistency.SYNCED);
    RunningSluice exact = start(Consistency.EXACT);
    try {
      List<RunningSluice> all = List.of(a, b, exact);
      assertThat(send(all, "many", 4, 150)).isEqualTo(1800);
      awaitEquals(1800, () -> redisCount("many"));

      // Sent and at once shut down: the last deltas go out in the shutdown flush.
      assertThat(send(List.of(a, b), "many", 4, 100)).isEqualTo(800);
      a.close();
      b.close();
      assertThat(redisCount("many")).isEqualTo(2600);
    } finally {
      a.close();
      b.close();
      exact.close();
    }
  }

  @Test
  void synced_windowEndsBetweenSyncs_eachWindowsHitsLandInItsOwnKey() throws Exception {
    long window = FixedWindow.index(clock.millis(), Duration.ofHours(1).toMillis());
    // No scheduled sync within the test: only the shutdown flush pushes, after the window ended.
    RunningSluice synced = start(Consistency.SYNCED, Duration.ofHours(1));
    try {
      send(List.of(synced), "rollover", 1, 5);
      clock.advance(Duration.ofHours(1));
      send(List.of(synced), "rollover", 1, 2);
    } finally {
      synced.close();
    }
    assertThat(redisCount("rollover", window)).isEqualTo(5);
    assertThat(redisCount("rollover", window + 1)).isEqualTo(2);
  }

  @Test
  void synced_exactAndSyncedInstances_shareOneCounter() throws Exception {
    try (RunningSluice synced = start(Consistency.SYNCED);
        RunningSluice exact = start(Consistency.EXACT)) {
      send(List.of(exact), "shared", 1, 30);
      send(List.of(synced), "shared", 1, 1);
      // The synced instance's first sync reads the exact instance's 30 back.
      awaitEquals(31, () -> redisCount("shared"));
      send(List.of(synced), "shared", 1, 1);
      // Admin inspect shows the local view: the known global 31 plus the unsynced hit (or 32 and
      // none, when a sync ran in between).
      String inspected = inspect(synced, "shared");
      assertThat(field(inspected, "count")).isEqualTo(32);
      assertThat(field(inspected, "known_global")).isBetween(31L, 32L);
      assertThat(field(inspected, "known_global") + field(inspected, "unsynced")).isEqualTo(32);
      assertThat(inspected).contains("\"consistency\": \"synced\"");
    }
  }

  @Test
  void synced_redisDown_keepsAnsweringDegraded_andPushesTheDeltasWhenBack() throws Exception {
    try (RunningSluice synced = start(Consistency.SYNCED)) {
      redis.stop();
      try {
        assertThat(send(List.of(synced), "outage", 2, 50)).isEqualTo(100);
        awaitHealth(synced, "DEGRADED");
      } finally {
        redis.start();
      }
      // The restarted Redis is empty: it ends up holding exactly what was counted while it was
      // down.
      awaitEquals(100, () -> redisCount("outage"));
      awaitHealth(synced, "OK");
    }
  }

  private static String inspect(RunningSluice sluice, String user) throws Exception {
    HttpRequest get =
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:" + sluice.httpPort() + "/counters?domain=api&user=" + user))
            .build();
    return HttpClient.newHttpClient().send(get, HttpResponse.BodyHandlers.ofString()).body();
  }

  /** A whole-number field of proto3 JSON (uint64 fields are quoted). */
  private static long field(String json, String name) {
    java.util.regex.Matcher value =
        java.util.regex.Pattern.compile("\"" + name + "\":\\s*\"?(\\d+)").matcher(json);
    assertThat(value.find()).as(json).isTrue();
    return Long.parseLong(value.group(1));
  }

  private static void awaitHealth(RunningSluice sluice, String firstLine) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest get =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sluice.httpPort() + "/healthcheck"))
            .build();
    Eventually.await(
        DEADLINE,
        "health " + firstLine,
        () -> http.send(get, HttpResponse.BodyHandlers.ofString()).body().startsWith(firstLine));
    HttpResponse<String> response = http.send(get, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).startsWith(firstLine);
  }
}
