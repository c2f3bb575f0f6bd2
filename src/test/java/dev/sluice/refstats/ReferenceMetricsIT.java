package dev.sluice.refstats;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.RedisServerExtension;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Envoy Gateway's rate-limit deployment, metrics side: the packaged jar started with the
 * reference's variables as Envoy Gateway sets them (USE_PROMETHEUS, PROMETHEUS_ADDR, a mapper in
 * PROMETHEUS_MAPPER_YAML with the effect of its ConfigMap), known traffic over RLS with Envoy
 * Gateway's two-level descriptors, and a real Prometheus (Debian's) scraping both Sluice ports. The
 * three panel queries of its Global Ratelimit dashboard must return the traffic's numbers, and
 * equal Sluice's own {@code sluice_*} counters; both endpoints pass {@code promtool check metrics}.
 */
class ReferenceMetricsIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final Path JAR = Path.of("target/sluice.jar").toAbsolutePath();
  private static final String JAVA = ProcessHandle.current().info().command().orElse("java");
  private static final Duration DEADLINE = Duration.ofSeconds(90);

  private static final String DOMAIN = "default/eg/http";
  private static final String ROUTE =
      "httproute/default/http-ratelimit/rule/0/match/0/ratelimit_example";
  private static final String MATCH = "rule-0-match-0";
  private static final String OTHER_ROUTE =
      "httproute/default/http-ratelimit/rule/1/match/-1/ratelimit_example";

  /** What Envoy Gateway pushes for one HTTPRoute rule with a header match: 5 per day. */
  private static final String RULES =
      """
      domain: default/eg/http
      descriptors:
        - key: %1$s
          value: %1$s
          descriptors:
            - key: %2$s
              value: %2$s
              rate_limit:
                requests_per_unit: 5
                unit: DAY
        - key: %3$s
          value: %3$s
          rate_limit:
            requests_per_unit: 100
            unit: DAY
      """
          .formatted(ROUTE, MATCH, OTHER_ROUTE);

  /** The dashboard's three panels, $DefaultDomain being default/eg/http. */
  private static final String LABELS =
      "{domain=\"default/eg/http\", key1=\""
          + ROUTE
          + "_"
          + ROUTE
          + "\", key2=\"rule-0-match-0_rule-0-match-0\"}";

  private static final String TOTAL_HITS = "ratelimit_service_rate_limit_total_hits" + LABELS;
  private static final String NEAR_LIMIT = "ratelimit_service_rate_limit_near_limit" + LABELS;
  private static final String OVER_LIMIT = "ratelimit_service_rate_limit_over_limit" + LABELS;

  private static final String SLUICE_RULE =
      "{domain=\"default/eg/http\", rule=\""
          + ROUTE
          + "_"
          + ROUTE
          + "."
          + MATCH
          + "_"
          + MATCH
          + "\"}";

  @TempDir Path tmp;
  private final List<Process> processes = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stop() throws InterruptedException {
    for (Process process : processes) {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void envoyGatewayDashboard_queriesThroughPrometheus_matchTrafficAndSluiceCounters()
      throws Exception {
    Ports ports = new Ports(freePort(), freePort(), freePort(), freePort());
    startSluice(ports);
    int calls = sendKnownTraffic(ports.grpc());
    startPrometheus(ports);

    // 8 hits on a limit of 5: 5 within (the 5th, above floor(5 x 0.8) = 4, is near), 3 over.
    Map<String, Double> panels = new java.util.LinkedHashMap<>();
    panels.put(TOTAL_HITS, 8.0);
    panels.put(NEAR_LIMIT, 1.0);
    panels.put(OVER_LIMIT, 3.0);
    for (Map.Entry<String, Double> panel : panels.entrySet()) {
      awaitValue(ports.prometheus(), panel.getKey(), panel.getValue());
      System.out.println(
          "dashboard panel query: "
              + panel.getKey()
              + "\n  /api/v1/query result: "
              + rawResult(ports.prometheus(), panel.getKey()));
    }
    awaitValue(ports.prometheus(), "sluice_rule_hits_total" + SLUICE_RULE, 8);
    awaitValue(ports.prometheus(), "sluice_rule_near_limit_total" + SLUICE_RULE, 1);
    awaitValue(ports.prometheus(), "sluice_rule_over_limit_total" + SLUICE_RULE, 3);
    awaitValue(
        ports.prometheus(),
        "ratelimit_service_rate_limit_within_limit" + LABELS,
        query(ports.prometheus(), "sluice_rule_within_limit_total" + SLUICE_RULE).orElseThrow());
    awaitValue(
        ports.prometheus(),
        "ratelimit_service_rate_limit_total_hits{domain=\"default/eg/http\", key1=\""
            + OTHER_ROUTE
            + "_"
            + OTHER_ROUTE
            + "\", key2=\"\"}",
        2);
    awaitValue(
        ports.prometheus(),
        "ratelimit_service_total_requests{grpc_method=\"ShouldRateLimit\"}",
        calls);
    awaitValue(
        ports.prometheus(),
        "sum(sluice_request_duration_seconds_count)",
        query(ports.prometheus(), "ratelimit_service_total_requests").orElseThrow());
    awaitValue(
        ports.prometheus(),
        "ratelimit_service_should_rate_limit_error{err_type=\"service_error\"}",
        1);
    awaitValue(
        ports.prometheus(), "sluice_request_duration_seconds_count{code=\"INVALID_ARGUMENT\"}", 1);
    awaitValue(ports.prometheus(), "ratelimit_service_config_load_success", 1);
    awaitValue(ports.prometheus(), "ratelimit_service_rate_limit_undeclared_domain_not_found", 1);
    awaitValue(ports.prometheus(), "sluice_domain_not_found_total{domain=\"undeclared\"}", 1);
    awaitValue(
        ports.prometheus(),
        "count(ratelimit_service_response_time_seconds_bucket{grpc_method=\"ShouldRateLimit\"})",
        12);
    assertThat(
            query(ports.prometheus(), "process_resident_memory_bytes{job=\"ratelimit\"}")
                .orElseThrow())
        .isPositive();

    assertPromtoolAccepts(scrape(ports.referenceMetrics(), "/metrics"), true);
    assertPromtoolAccepts(scrape(ports.http(), "/metrics"), false);
  }

  /** The four ports: Sluice's gRPC and admin HTTP ports, its reference metrics, Prometheus. */
  private record Ports(int grpc, int http, int referenceMetrics, int prometheus) {}

  private void startSluice(Ports ports) throws IOException {
    Path root = tmp.resolve("data");
    Path rules = Files.createDirectories(root.resolve("ratelimit/config"));
    Files.writeString(rules.resolve("default-eg-http.yaml"), RULES);
    Path mapper = tmp.resolve("conf.yaml");
    try (InputStream in = getClass().getResourceAsStream("/refstats/envoy-gateway-statsd.yaml")) {
      Files.write(mapper, in.readAllBytes());
    }
    Map<String, String> env = new HashMap<>();
    env.put("RUNTIME_ROOT", root.toString());
    env.put("RUNTIME_SUBDIRECTORY", "ratelimit");
    env.put("RUNTIME_IGNOREDOTFILES", "true");
    env.put("RUNTIME_WATCH_ROOT", "false");
    env.put("LOG_LEVEL", "info");
    env.put("USE_STATSD", "false");
    env.put("REDIS_SOCKET_TYPE", "tcp");
    env.put("REDIS_URL", redis.host() + ":" + redis.port());
    // Generous, as the reference's default (10s): a loaded machine must not fail requests.
    env.put("REDIS_TIMEOUT", "5s");
    env.put("USE_PROMETHEUS", "true");
    env.put("PROMETHEUS_ADDR", ":" + ports.referenceMetrics());
    env.put("PROMETHEUS_MAPPER_YAML", mapper.toString());
    env.put("PORT", String.valueOf(ports.http()));
    env.put("GRPC_PORT", String.valueOf(ports.grpc()));
    Path stdout = tmp.resolve("sluice.out");
    ProcessBuilder builder =
        new ProcessBuilder(JAVA, "-jar", JAR.toString(), "serve")
            .redirectOutput(stdout.toFile())
            .redirectError(tmp.resolve("sluice.err").toFile());
    builder.environment().keySet().removeIf(name -> !name.equals("PATH") && !name.equals("HOME"));
    builder.environment().putAll(env);
    processes.add(builder.start());
    Eventually.await(DEADLINE, "Sluice ready", () -> read(stdout).contains("Sluice ready"));
    Eventually.await(DEADLINE, "Sluice healthy", () -> answers(ports.http(), "/healthcheck"));
    assertThat(read(stdout))
        .contains(
            "reference metrics (the reference's stat names) on port " + ports.referenceMetrics())
        .doesNotContain("PROMETHEUS");
  }

  /**
   * 8 requests on the two-level rule, 2 on the one-level rule, one in an undeclared domain, one
   * invalid (no domain).
   *
   * @return the ShouldRateLimit calls made
   */
  private static int sendKnownTraffic(int grpcPort) {
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
    try {
      var rls = RateLimitServiceGrpc.newBlockingStub(channel);
      List<RateLimitResponse.Code> codes = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        codes.add(
            rls.withDeadlineAfter(30, TimeUnit.SECONDS)
                .shouldRateLimit(request(DOMAIN, descriptor(ROUTE, ROUTE, MATCH, MATCH)))
                .getOverallCode());
      }
      assertThat(codes).filteredOn(RateLimitResponse.Code.OVER_LIMIT::equals).hasSize(3);
      for (int i = 0; i < 2; i++) {
        rls.withDeadlineAfter(30, TimeUnit.SECONDS)
            .shouldRateLimit(request(DOMAIN, descriptor(OTHER_ROUTE, OTHER_ROUTE)));
      }
      rls.withDeadlineAfter(30, TimeUnit.SECONDS)
          .shouldRateLimit(request("undeclared", descriptor("k", "v")));
      try {
        rls.withDeadlineAfter(30, TimeUnit.SECONDS)
            .shouldRateLimit(request("", descriptor("k", "v")));
        throw new AssertionError("a request without a domain was answered");
      } catch (StatusRuntimeException expected) {
        assertThat(expected.getStatus().getCode().name()).isEqualTo("INVALID_ARGUMENT");
      }
      return 12;
    } finally {
      channel.shutdownNow();
    }
  }

  private void startPrometheus(Ports ports) throws IOException {
    Path config = tmp.resolve("prometheus.yml");
    Files.writeString(
        config,
        """
        global:
          scrape_interval: 1s
          scrape_timeout: 1s
        scrape_configs:
          - job_name: ratelimit
            static_configs: [{targets: ["127.0.0.1:%d"]}]
          - job_name: sluice
            static_configs: [{targets: ["127.0.0.1:%d"]}]
        """
            .formatted(ports.referenceMetrics(), ports.http()));
    ProcessBuilder builder =
        new ProcessBuilder(
                "prometheus",
                "--config.file=" + config,
                "--storage.tsdb.path=" + tmp.resolve("tsdb"),
                "--web.listen-address=127.0.0.1:" + ports.prometheus(),
                "--log.level=warn")
            .redirectErrorStream(true)
            .redirectOutput(tmp.resolve("prometheus.out").toFile());
    processes.add(builder.start());
    Eventually.await(DEADLINE, "Prometheus ready", () -> answers(ports.prometheus(), "/-/ready"));
    Eventually.await(
        DEADLINE,
        "both targets scraped and up",
        () -> query(ports.prometheus(), "sum(up)").orElse(0) == 2);
  }

  /** Waits until {@code expr} has one sample equal to {@code expected} (absent counts as 0). */
  private void awaitValue(int prometheus, String expr, double expected) {
    Eventually.await(
        DEADLINE, expr + " == " + expected, () -> query(prometheus, expr).orElse(0) == expected);
  }

  /** The one sample {@code expr} gives now; empty when it gives none. */
  private OptionalDouble query(int prometheus, String expr) throws Exception {
    HttpResponse<String> response =
        get(prometheus, "/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonArray result =
        JsonParser.parseString(response.body())
            .getAsJsonObject()
            .getAsJsonObject("data")
            .getAsJsonArray("result");
    if (result.isEmpty()) {
      return OptionalDouble.empty();
    }
    assertThat(result).as(expr).hasSize(1);
    JsonObject sample = result.get(0).getAsJsonObject();
    return OptionalDouble.of(
        Double.parseDouble(sample.getAsJsonArray("value").get(1).getAsString()));
  }

  /** The query API's {@code data.result}, as Prometheus wrote it. */
  private String rawResult(int prometheus, String expr) throws Exception {
    String body =
        get(prometheus, "/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8))
            .body();
    return JsonParser.parseString(body)
        .getAsJsonObject()
        .getAsJsonObject("data")
        .get("result")
        .toString();
  }

  private HttpResponse<String> get(int port, String pathAndQuery) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Whether {@code path} answers 200 yet; false while nothing listens. */
  private boolean answers(int port, String path) throws Exception {
    try {
      return get(port, path).statusCode() == 200;
    } catch (java.net.ConnectException e) {
      return false;
    }
  }

  private String scrape(int port, String path) throws Exception {
    HttpResponse<String> response = get(port, path);
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  /**
   * {@code promtool check metrics} parses the text and lints it. The reference's names break one
   * lint rule on purpose, as the reference's own endpoint does: its counters have no {@code _total}
   * suffix (the dashboard queries them so). Any other finding, or a parse error, fails.
   */
  private void assertPromtoolAccepts(String text, boolean referenceNames) throws Exception {
    Path input = Files.writeString(tmp.resolve("promtool-" + referenceNames + ".txt"), text);
    Process promtool =
        new ProcessBuilder("promtool", "check", "metrics")
            .redirectInput(input.toFile())
            .redirectErrorStream(true)
            .start();
    processes.add(promtool);
    assertThat(promtool.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String findings = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!referenceNames) {
      assertThat(promtool.exitValue()).as(findings).isZero();
      return;
    }
    assertThat(promtool.exitValue()).as(findings).isIn(0, 3);
    assertThat(findings.lines().toList())
        .isNotEmpty()
        .allSatisfy(
            line ->
                assertThat(line)
                    .matches(
                        "ratelimit_service_[a-z_]+ counter metrics should have \"_total\" suffix"));
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
