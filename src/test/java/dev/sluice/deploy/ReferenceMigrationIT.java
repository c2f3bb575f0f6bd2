package dev.sluice.deploy;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.RedisServerExtension;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A team migrating from envoyproxy/ratelimit changes only the image: this starts the packaged jar
 * with nothing but the reference's environment variables (no {@code SLUICE_*}, no flags), on rule
 * files shaped like the reference's examples, and checks through gRPC, the HTTP port and Redis.
 */
class ReferenceMigrationIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  /** The reference's per-second Redis (REDIS_PERSECOND). */
  @RegisterExtension static final RedisServerExtension perSecondRedis = new RedisServerExtension();

  private static final Path JAR = Path.of("target/sluice.jar").toAbsolutePath();
  private static final String JAVA = ProcessHandle.current().info().command().orElse("java");
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  /** Reference-example-like rules: one domain split over two files, plus a second domain. */
  private static final Map<String, String> RULES =
      Map.of(
          "rl-users.yaml",
          """
          domain: rl
          descriptors:
            - key: foo
              rate_limit:
                unit: day
                requests_per_unit: 2
            - key: key1
              value: value1
              descriptors:
                - key: subkey1
                  rate_limit:
                    unit: second
                    requests_per_unit: 10
          """,
          "rl-paths.yaml",
          """
          domain: rl
          descriptors:
            - key: path
              value: /health
              rate_limit:
                unlimited: true
            - key: bar
              rate_limit:
                unit: hour
                requests_per_unit: 100
          """,
          "another.yaml",
          """
          domain: another
          descriptors:
            - key: key2
              rate_limit:
                unit: minute
                requests_per_unit: 20
              shadow_mode: true
          """);

  @TempDir Path tmp;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (Process process : processes) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void referenceVariablesOnly_serveLikeTheReference() throws Exception {
    Path root = tmp.resolve("runtime");
    Path rules = Files.createDirectories(root.resolve("ratelimit/config"));
    for (var file : RULES.entrySet()) {
      Files.writeString(rules.resolve(file.getKey()), file.getValue());
    }
    int httpPort = freePort();
    int grpcPort = freePort();
    Map<String, String> env = new HashMap<>();
    env.put("RUNTIME_ROOT", root.toString());
    env.put("RUNTIME_SUBDIRECTORY", "ratelimit");
    env.put("RUNTIME_APPDIRECTORY", "config");
    env.put("RUNTIME_WATCH_ROOT", "false");
    env.put("RUNTIME_IGNOREDOTFILES", "true");
    env.put("MERGE_DOMAIN_CONFIG", "true");
    env.put("PORT", String.valueOf(httpPort));
    env.put("GRPC_PORT", String.valueOf(grpcPort));
    env.put("DEBUG_PORT", String.valueOf(httpPort));
    env.put("REDIS_SOCKET_TYPE", "tcp");
    env.put("REDIS_URL", redis.host() + ":" + redis.port());
    env.put("REDIS_TIMEOUT", "1s");
    env.put("CACHE_KEY_PREFIX", "migrated_");
    env.put("LIMIT_RESPONSE_HEADERS_ENABLED", "true");
    env.put("GRPC_MAX_CONNECTION_AGE", "1h");
    env.put("LOG_LEVEL", "info");
    env.put("LOG_FORMAT", "json");
    env.put("USE_STATSD", "true");
    env.put("STATSD_HOST", "statsd");
    Path stdout = tmp.resolve("stdout");
    start(env, stdout);

    Eventually.await(DEADLINE, "ready line", () -> read(stdout).contains("Sluice ready"));
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
    try {
      var health = HealthGrpc.newBlockingStub(channel);
      Eventually.await(
          DEADLINE,
          "gRPC health 'ratelimit' SERVING",
          () ->
              health
                      .check(HealthCheckRequest.newBuilder().setService("ratelimit").build())
                      .getStatus()
                  == ServingStatus.SERVING);
      assertThat(
              health
                  .withDeadlineAfter(5, TimeUnit.SECONDS)
                  .check(HealthCheckRequest.getDefaultInstance())
                  .getStatus())
          .isEqualTo(ServingStatus.SERVING);

      var rls =
          RateLimitServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS);
      // Both files of domain rl serve: merged.
      RateLimitResponse foo = rls.shouldRateLimit(request("rl", descriptor("foo", "x")));
      RateLimitResponse bar = rls.shouldRateLimit(request("rl", descriptor("bar", "y")));
      rls.shouldRateLimit(request("rl", descriptor("foo", "x")));
      RateLimitResponse third = rls.shouldRateLimit(request("rl", descriptor("foo", "x")));
      assertThat(foo.getStatuses(0).getCurrentLimit().getRequestsPerUnit()).isEqualTo(2);
      assertThat(bar.getStatuses(0).getCurrentLimit().getRequestsPerUnit()).isEqualTo(100);
      assertThat(third.getOverallCode()).isEqualTo(RateLimitResponse.Code.OVER_LIMIT);
      assertThat(foo.getResponseHeadersToAddList())
          .extracting(h -> h.getKey())
          .contains("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset");
    } finally {
      channel.shutdownNow();
    }

    HttpResponse<String> healthcheck =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/healthcheck"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(healthcheck.statusCode()).isEqualTo(200);
    assertThat(redis.client().keys("migrated_*")).isNotEmpty();

    List<String> lines = read(stdout).lines().toList();
    assertThat(lines).isNotEmpty();
    for (String line : lines) {
      JsonObject json = JsonParser.parseString(line).getAsJsonObject();
      assertThat(json.keySet()).as(line).contains("level", "logger", "message", "timestamp");
    }
    assertThat(lines)
        .anySatisfy(
            line ->
                assertThat(line)
                    .contains("\"level\":\"WARN\"")
                    .contains("USE_STATSD (statsd is not supported")
                    .contains("STATSD_HOST"));
  }

  /**
   * The reference's behaviour switches, on one process: it starts on an empty rule directory,
   * unhealthy until a file brings a domain (HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED).
   */
  @Test
  void behaviourVariables_actLikeTheReference() throws Exception {
    Path rules = Files.createDirectories(tmp.resolve("runtime/current/config"));
    int httpPort = freePort();
    int grpcPort = freePort();
    Map<String, String> env = new HashMap<>();
    env.put("RUNTIME_ROOT", tmp.resolve("runtime/current").toString());
    env.put("RUNTIME_SUBDIRECTORY", "");
    env.put("RUNTIME_WATCH_ROOT", "false");
    env.put("PORT", String.valueOf(httpPort));
    env.put("GRPC_PORT", String.valueOf(grpcPort));
    env.put("REDIS_SOCKET_TYPE", "tcp");
    env.put("REDIS_URL", redis.host() + ":" + redis.port());
    env.put("REDIS_TIMEOUT", "1s");
    env.put("CACHE_KEY_PREFIX", "behaviour_");
    env.put("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED", "true");
    env.put("QUOTA_MODE", "true");
    env.put("NEAR_LIMIT_RATIO", "0.5");
    env.put("RESPONSE_DYNAMIC_METADATA", "true");
    env.put("EXPIRATION_JITTER_MAX_SECONDS", "300");
    env.put("LIMIT_RESPONSE_HEADERS_ENABLED", "1");
    Path stdout = tmp.resolve("behaviour-stdout");
    start(env, stdout);
    Eventually.await(DEADLINE, "ready line", () -> read(stdout).contains("Sluice ready"));
    assertThat(read(stdout)).doesNotContain("reference variables not implemented");

    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
    try {
      var health = HealthGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS);
      HealthCheckRequest ratelimit =
          HealthCheckRequest.newBuilder().setService("ratelimit").build();
      assertThat(health.check(ratelimit).getStatus()).isEqualTo(ServingStatus.NOT_SERVING);
      assertThat(get(httpPort, "/healthcheck").statusCode()).isEqualTo(503);

      Files.writeString(rules.resolve("behaviour.yaml"), BEHAVIOUR_RULES);
      Eventually.await(
          DEADLINE,
          "gRPC health 'ratelimit' SERVING once a domain is loaded",
          () ->
              HealthGrpc.newBlockingStub(channel)
                      .withDeadlineAfter(5, TimeUnit.SECONDS)
                      .check(ratelimit)
                      .getStatus()
                  == ServingStatus.SERVING);
      assertThat(get(httpPort, "/healthcheck").statusCode()).isEqualTo(200);

      HttpResponse<String> rlconfig = get(httpPort, "/rlconfig");
      assertThat(rlconfig.headers().firstValue("Content-Type"))
          .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
      assertThat(rlconfig.body())
          .isEqualTo(
              """
              behaviour.blocked: unit=MINUTE requests_per_unit=0, shadow_mode: false, quota_mode: false
              behaviour.bucket: unit=MINUTE requests_per_unit=2, shadow_mode: false, quota_mode: false, algorithm: token_bucket, burst: 5
              behaviour.tenant: unit=MINUTE requests_per_unit=10, shadow_mode: false, quota_mode: false
              """);

      var rls =
          RateLimitServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS);
      // QUOTA_MODE: every descriptor is a quota descriptor, so one over limit is not enough.
      RateLimitResponse quota =
          rls.shouldRateLimit(
              request("behaviour", descriptor("blocked", "x"), descriptor("tenant", "q")));
      assertThat(quota.getStatuses(0).getCode()).isEqualTo(RateLimitResponse.Code.OVER_LIMIT);
      assertThat(quota.getOverallCode()).isEqualTo(RateLimitResponse.Code.OK);
      // RESPONSE_DYNAMIC_METADATA: the request echoed, and the passing rule's metadata.
      var metadata = quota.getDynamicMetadata().getFieldsMap();
      assertThat(metadata.get("domain").getStringValue()).isEqualTo("behaviour");
      assertThat(metadata.get("descriptors").getListValue().getValues(1).getStructValue())
          .extracting(
              d -> d.getFieldsOrThrow("entries").getListValue().getValues(0).getStringValue())
          .isEqualTo("tenant=q");
      assertThat(
              metadata.get("metadata").getStructValue().getFieldsOrThrow("tier").getStringValue())
          .isEqualTo("gold");
      assertThat(
              rls.shouldRateLimit(request("behaviour", descriptor("blocked", "x")))
                  .getOverallCode())
          .isEqualTo(RateLimitResponse.Code.OVER_LIMIT);

      // NEAR_LIMIT_RATIO=0.5 of 10: hits 6 and 7 are near the limit (at 0.8 none would be). The
      // seven hits must share one minute's window: an attempt whose answers show a new window
      // (remaining not 9, 8, ..., 3) is repeated on a fresh key, its near hits left out.
      double nearBefore = nearLimitTotal(httpPort);
      for (int attempt = 0; ; attempt++) {
        List<Long> remaining = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
          remaining.add(
              (long)
                  rls.shouldRateLimit(request("behaviour", descriptor("tenant", "near-" + attempt)))
                      .getStatuses(0)
                      .getLimitRemaining());
        }
        double nearAfter = nearLimitTotal(httpPort);
        if (remaining.equals(List.of(9L, 8L, 7L, 6L, 5L, 4L, 3L)) || attempt == 2) {
          assertThat(remaining).containsExactly(9L, 8L, 7L, 6L, 5L, 4L, 3L);
          assertThat(nearAfter - nearBefore).isEqualTo(2.0);
          break;
        }
        nearBefore = nearAfter;
      }

      // A token bucket's RateLimit-Limit is its burst: Remaining (4 of a full 5) never exceeds it.
      RateLimitResponse bucket =
          rls.shouldRateLimit(request("behaviour", descriptor("bucket", "b")));
      assertThat(bucket.getResponseHeadersToAddList())
          .extracting(h -> h.getKey() + ": " + h.getValue())
          .contains("RateLimit-Limit: 5", "RateLimit-Remaining: 4");
      assertThat(bucket.getStatuses(0).getCurrentLimit().getRequestsPerUnit()).isEqualTo(2);

      // EXPIRATION_JITTER_MAX_SECONDS=300: minute counters live up to 5 minutes longer, each its
      // own.
      List<Long> ttls = new ArrayList<>();
      try (var jedis = redis.client()) {
        for (String key : jedis.keys("behaviour_*")) {
          ttls.add(jedis.pttl(key));
        }
      }
      assertThat(ttls)
          .hasSizeGreaterThanOrEqualTo(3)
          .allSatisfy(ttl -> assertThat(ttl).isBetween(1L, 360_000L));
      // All three within a second past their window would take odds of (1/300)^3.
      assertThat(ttls.stream().mapToLong(Long::longValue).max().orElseThrow())
          .isGreaterThan(61_000L);
    } finally {
      channel.shutdownNow();
    }
  }

  /** REDIS_PERSECOND: second limits on the second Redis, the others on the main one. */
  @Test
  void perSecondRedis_secondLimitsThere_othersOnTheMainRedis() throws Exception {
    Path rules = Files.createDirectories(tmp.resolve("runtime/current/config"));
    Files.writeString(
        rules.resolve("split.yaml"),
        """
        domain: split
        descriptors:
          - key: fast
            rate_limit: {unit: second, requests_per_unit: 1}
          - key: slow
            rate_limit: {unit: minute, requests_per_unit: 5}
        """);
    int httpPort = freePort();
    int grpcPort = freePort();
    Map<String, String> env = new HashMap<>();
    env.put("RUNTIME_ROOT", tmp.resolve("runtime/current").toString());
    env.put("RUNTIME_SUBDIRECTORY", "");
    env.put("PORT", String.valueOf(httpPort));
    env.put("GRPC_PORT", String.valueOf(grpcPort));
    env.put("REDIS_SOCKET_TYPE", "tcp");
    env.put("REDIS_URL", redis.host() + ":" + redis.port());
    env.put("REDIS_TIMEOUT", "1s");
    env.put("REDIS_PERSECOND", "true");
    env.put("REDIS_PERSECOND_SOCKET_TYPE", "tcp");
    env.put("REDIS_PERSECOND_URL", perSecondRedis.host() + ":" + perSecondRedis.port());
    env.put("REDIS_PERSECOND_TIMEOUT", "1s");
    env.put("CACHE_KEY_PREFIX", "split_");
    Path stdout = tmp.resolve("split-stdout");
    start(env, stdout);
    Eventually.await(DEADLINE, "ready line", () -> read(stdout).contains("Sluice ready"));
    assertThat(read(stdout)).doesNotContain("reference variables not implemented");

    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
    try {
      var rls =
          RateLimitServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS);
      // The per-second counter expires one second after its hit (no jitter is set): an attempt
      // whose keys were read that late may find it gone, so it is repeated on fresh values. Read
      // sooner, the counter must be there.
      for (int attempt = 0; ; attempt++) {
        long sent = System.nanoTime();
        RateLimitResponse both =
            rls.shouldRateLimit(
                request(
                    "split", descriptor("fast", "f" + attempt), descriptor("slow", "s" + attempt)));
        assertThat(both.getOverallCode()).isEqualTo(RateLimitResponse.Code.OK);
        assertThat(both.getStatuses(0).getCurrentLimit().getRequestsPerUnit()).isEqualTo(1);
        assertThat(both.getStatuses(1).getLimitRemaining()).isEqualTo(4);
        try (var main = redis.client();
            var second = perSecondRedis.client()) {
          Set<String> onSecond = second.keys("split_fw|*");
          Set<String> onMain = main.keys("split_fw|*");
          boolean inTime = System.nanoTime() - sent < PER_SECOND_TTL.toNanos();
          if (inTime || attempt == 2) {
            String fast = "fast=f" + attempt + "|";
            String slow = "slow=s" + attempt + "|";
            assertThat(onSecond)
                .allSatisfy(k -> assertThat(k).contains("fast"))
                .filteredOn(k -> k.contains(fast))
                .hasSize(1);
            assertThat(onMain)
                .allSatisfy(k -> assertThat(k).contains("slow"))
                .filteredOn(k -> k.contains(slow))
                .hasSize(1);
            break;
          }
        }
      }
    } finally {
      channel.shutdownNow();
    }
    assertThat(get(httpPort, "/metrics").body()).contains("store=\"redis_per_second\"");
  }

  /** Less than a per-second counter lives: the one second of its window, no jitter. */
  private static final Duration PER_SECOND_TTL = Duration.ofMillis(900);

  private static final String BEHAVIOUR_RULES =
      """
      domain: behaviour
      descriptors:
        - key: tenant
          rate_limit:
            unit: minute
            requests_per_unit: 10
          metadata:
            tier: gold
        - key: blocked
          rate_limit:
            unit: minute
            requests_per_unit: 0
        - key: bucket
          rate_limit:
            unit: minute
            requests_per_unit: 2
            algorithm: token_bucket
            burst: 5
      """;

  /** The tenant rule's sluice_rule_near_limit_total, from /metrics. */
  private static double nearLimitTotal(int httpPort) throws Exception {
    String line = "sluice_rule_near_limit_total{domain=\"behaviour\",rule=\"tenant\"} ";
    String body = get(httpPort, "/metrics").body();
    int at = body.indexOf(line);
    assertThat(at).as("%s in /metrics", line).isNotNegative();
    int end = body.indexOf('\n', at);
    return Double.parseDouble(body.substring(at + line.length(), end));
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void referenceExampleRules_loadWithMergeOff_exceptTheSplitDomain() throws Exception {
    Path rules = Files.createDirectories(tmp.resolve("rules"));
    Files.writeString(rules.resolve("another.yaml"), RULES.get("another.yaml"));
    Files.writeString(rules.resolve("rl-users.yaml"), RULES.get("rl-users.yaml"));
    assertThat(check(Map.of("MERGE_DOMAIN_CONFIG", "false"), rules).exit()).isZero();

    Files.writeString(rules.resolve("rl-paths.yaml"), RULES.get("rl-paths.yaml"));
    Result off = check(Map.of(), rules);
    Result on = check(Map.of("MERGE_DOMAIN_CONFIG", "true"), rules);
    assertThat(off.exit()).isEqualTo(1);
    assertThat(off.stderr()).contains("duplicate domain 'rl'");
    assertThat(on.exit()).as(on.stderr()).isZero();
  }

  private record Result(int exit, String stderr) {}

  private Result check(Map<String, String> env, Path rules) throws Exception {
    Path out = tmp.resolve("check-out-" + processes.size());
    Process process =
        builder(env, out, "check", "--config", rules.toString()).redirectErrorStream(true).start();
    processes.add(process);
    assertThat(process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), read(out));
  }

  private void start(Map<String, String> env, Path stdout) throws IOException {
    ProcessBuilder builder = builder(env, stdout, "serve");
    builder.redirectError(tmp.resolve("stderr").toFile());
    processes.add(builder.start());
  }

  /** The jar with the reference's variables only: no SLUICE_*, no reference names inherited. */
  private static ProcessBuilder builder(Map<String, String> env, Path stdout, String... args) {
    List<String> command = new ArrayList<>(List.of(JAVA, "-jar", JAR.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(stdout.toFile());
    builder.environment().keySet().removeIf(name -> !name.equals("PATH") && !name.equals("HOME"));
    builder.environment().putAll(env);
    return builder;
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      return "";
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
