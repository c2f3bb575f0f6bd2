package dev.sluice.deploy;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.xds.XdsRuleClient;
import dev.sluice.rules.xds.v3.RateLimitConfig;
import dev.sluice.rules.xds.v3.RateLimitDescriptor;
import dev.sluice.rules.xds.v3.RateLimitPolicy;
import dev.sluice.rules.xds.v3.RateLimitUnit;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.TestAdsServer;
import dev.sluice.testing.TestCertificates;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image run as Envoy Gateway runs its rate-limit Deployment (its {@code resource.go}), with no
 * Kubernetes and no Docker: the Dockerfile's final stage laid out from this checkout ({@link
 * ImageLayer}), started by Envoy Gateway's command {@code /bin/ratelimit} with its environment, as
 * uid/gid 65534 with every capability dropped, on a read-only root with no writable directory
 * ({@link ReadOnlyContainer}). Its certificates are made the way Envoy Gateway makes them (a CA,
 * PKCS#1 RSA keys, DNS names only; one pair for the gRPC port and the xDS client), mounted at
 * {@code /certs}; rules come over xDS from a management server that requires that client
 * certificate and whose certificate names {@code envoy-gateway}; counters live in a real Redis.
 *
 * <p>Two things differ from Envoy Gateway's Deployment. The ports: its container listens on the
 * defaults 8080, 8081 and 19001, which a shared machine may have taken, so {@code PORT}, {@code
 * GRPC_PORT} and {@code PROMETHEUS_ADDR} name free ones. And {@code REDIS_TIMEOUT}: Sluice's
 * default (100 ms) fails calls when both cores of the test machine are busy.
 */
class EnvoyGatewayContainerIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final String NAMESPACE = "envoy-gateway-system";
  private static final String DOMAIN = "default/eg/http";
  private static final String ROUTE = "httproute/default/http-ratelimit/rule/0/match/0";
  private static final String MATCH = "rule-0-match-0";
  private static final int LIMIT = 3;

  @TempDir Path dir;
  private TestAdsServer ads;
  private Process container;
  private ManagedChannel channel;

  @BeforeAll
  static void containersCanBeMadeHere() {
    var reason = ReadOnlyContainer.unavailable();
    Assumptions.assumeTrue(reason.isEmpty(), () -> "no container sandbox: " + reason.get());
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow();
    }
    if (container != null) {
      container.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (ads != null) {
      ads.close();
    }
  }

  @Test
  void envoyGatewayDeployment_readOnlyRootAsNobody_servesXdsRulesOverTlsOnEpoll() throws Exception {
    TestCertificates certs = new TestCertificates(Files.createDirectories(dir.resolve("pki")));
    Path gateway = certs.issue("envoy-gateway", gatewayNames());
    Path rateLimit = certs.issue("envoy", "DNS:*." + NAMESPACE);
    ads = TestAdsServer.start(XdsRuleClient.TYPE_URL, serverCredentials(gateway, certs.ca()));
    ads.push("v1", rules());

    ReadOnlyContainer box = ReadOnlyContainer.in(dir.resolve("container"));
    Dockerfile docker = Dockerfile.load();
    ImageLayer.layOut(docker, box.root(), dir.resolve("build"));
    box.copy(rateLimit, "/certs/tls.crt");
    box.copy(certs.pkcs1KeyOf(rateLimit), "/certs/tls.key");
    box.copy(certs.ca(), "/certs/ca.crt");
    box.write(
        "/etc/statsd-exporter/conf.yaml",
        Files.readString(Path.of("src/test/resources/refstats/envoy-gateway-statsd.yaml")));
    // Cluster DNS: the management server's Service name.
    box.write("/etc/hosts", "127.0.0.1 localhost envoy-gateway\n");
    Ports ports = new Ports(freePort(), freePort(), freePort());
    Path log = dir.resolve("container.log");
    container =
        box.start(
            List.of("/bin/ratelimit"), docker.finalStage().workdir(), environment(ports), log);

    awaitHealthy(ports.http(), log);
    assertThat(ads.answerTo(ads.lastNonce(), DEADLINE).getVersionInfo())
        .as("rules ACKed")
        .isEqualTo("v1");
    assertThat(codes(ports.grpc(), certs.ca(), LIMIT + 1))
        .containsExactly(Code.OK, Code.OK, Code.OK, Code.OVER_LIMIT);
    assertThat(redis.client().keys("*")).as("counted in Redis").isNotEmpty();
    referencePrometheusSeries(ports.metrics());

    assertRunsAsEnvoyGatewaySays(container.pid());
    assertNativeLibrariesLoadedFromTheImage(container.pid());
    String output = Files.readString(log);
    assertThat(output)
        .as("the container's log:%n%s", output)
        .contains("native epoll transport")
        .doesNotContain("native epoll unavailable")
        .doesNotContain("Read-only file system")
        .doesNotContain(" ERROR ");
  }

  /**
   * The reference's series on {@code PROMETHEUS_ADDR}, mapped through the mounted ConfigMap as
   * Envoy Gateway's dashboard reads them: the {@code LIMIT + 1} calls above, one of them over.
   */
  private static void referencePrometheusSeries(int metricsPort) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest get =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
            .timeout(Duration.ofSeconds(5))
            .build();
    String body = http.send(get, HttpResponse.BodyHandlers.ofString()).body();
    String labels =
        "{domain=\""
            + DOMAIN
            + "\",key1=\""
            + ROUTE
            + "_"
            + ROUTE
            + "\",key2=\""
            + MATCH
            + "_"
            + MATCH
            + "\"}";
    assertThat(body)
        .as("the reference's series on PROMETHEUS_ADDR:%n%s", body)
        .contains("ratelimit_service_rate_limit_total_hits" + labels + " " + (LIMIT + 1))
        .contains("ratelimit_service_rate_limit_over_limit" + labels + " 1")
        .containsPattern("(?m)^ratelimit_service_config_load_success(\\{[^}]*})? [1-9]");
  }

  private record Ports(int http, int grpc, int metrics) {}

  /** Envoy Gateway's variables for a Redis backend with Prometheus on, plus the base image's. */
  private Map<String, String> environment(Ports ports) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", ReadOnlyContainer.PATH);
    env.put("JAVA_HOME", ReadOnlyContainer.JAVA_HOME);
    env.put("HOSTNAME", "envoy-ratelimit-6d8f9c7b5-x2x9q");
    env.put("RUNTIME_ROOT", "/data");
    env.put("RUNTIME_SUBDIRECTORY", "ratelimit");
    env.put("RUNTIME_IGNOREDOTFILES", "true");
    env.put("RUNTIME_WATCH_ROOT", "false");
    env.put("LOG_LEVEL", "info");
    env.put("USE_STATSD", "false");
    env.put("CONFIG_TYPE", "GRPC_XDS_SOTW");
    env.put("CONFIG_GRPC_XDS_SERVER_URL", "envoy-gateway:" + ads.port());
    env.put("CONFIG_GRPC_XDS_NODE_ID", "envoy-ratelimit");
    env.put("GRPC_SERVER_USE_TLS", "true");
    env.put("GRPC_SERVER_TLS_CERT", "/certs/tls.crt");
    env.put("GRPC_SERVER_TLS_KEY", "/certs/tls.key");
    env.put("GRPC_SERVER_TLS_CA_CERT", "/certs/ca.crt");
    env.put("CONFIG_GRPC_XDS_SERVER_USE_TLS", "true");
    env.put("CONFIG_GRPC_XDS_CLIENT_TLS_CERT", "/certs/tls.crt");
    env.put("CONFIG_GRPC_XDS_CLIENT_TLS_KEY", "/certs/tls.key");
    env.put("CONFIG_GRPC_XDS_SERVER_TLS_CACERT", "/certs/ca.crt");
    env.put("FORCE_START_WITHOUT_INITIAL_CONFIG", "true");
    env.put("REDIS_SOCKET_TYPE", "tcp");
    env.put("REDIS_URL", "127.0.0.1:" + redis.port());
    env.put("REDIS_TIMEOUT", "5s"); // not Envoy Gateway's: 100 ms fails on a loaded test machine
    env.put("USE_PROMETHEUS", "true");
    env.put("PROMETHEUS_ADDR", ":" + ports.metrics());
    env.put("PROMETHEUS_MAPPER_YAML", "/etc/statsd-exporter/conf.yaml");
    env.put("PORT", String.valueOf(ports.http()));
    env.put("GRPC_PORT", String.valueOf(ports.grpc()));
    return env;
  }

  /** What Envoy Gateway's certificate generator puts in its own certificate. */
  private static String gatewayNames() {
    List<String> names = new ArrayList<>();
    String name = "envoy-gateway";
    for (String suffix : List.of("", "." + NAMESPACE, ".svc", ".cluster.local")) {
      name += suffix;
      names.add("DNS:" + name);
    }
    return String.join(",", names);
  }

  private static TlsServerCredentials serverCredentials(Path cert, Path ca) throws IOException {
    return (TlsServerCredentials)
        TlsServerCredentials.newBuilder()
            .keyManager(cert.toFile(), TestCertificates.keyOf(cert).toFile())
            .trustManager(ca.toFile())
            .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
            .build();
  }

  /** Envoy Gateway's shape: a domain per listener, the route's rule as a key equal to its value. */
  private static RateLimitConfig rules() {
    RateLimitDescriptor match =
        RateLimitDescriptor.newBuilder()
            .setKey(MATCH)
            .setValue(MATCH)
            .setRateLimit(
                RateLimitPolicy.newBuilder().setUnit(RateLimitUnit.DAY).setRequestsPerUnit(LIMIT))
            .build();
    return RateLimitConfig.newBuilder()
        .setName(DOMAIN)
        .setDomain(DOMAIN)
        .addDescriptors(
            RateLimitDescriptor.newBuilder().setKey(ROUTE).setValue(ROUTE).addDescriptors(match))
        .build();
  }

  private void awaitHealthy(int httpPort, Path log) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest get =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/healthcheck"))
            .timeout(Duration.ofSeconds(1))
            .build();
    Eventually.await(
        DEADLINE,
        "/healthcheck 200 on PORT",
        () -> {
          if (!container.isAlive()) {
            throw new AssertionError("the container exited:\n" + Files.readString(log));
          }
          try {
            return http.send(get, HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
          } catch (IOException e) {
            return false;
          }
        });
  }

  /** {@code times} calls as Envoy makes them, over TLS, trusting Envoy Gateway's CA. */
  private List<Code> codes(int grpcPort, Path ca, int times) throws IOException {
    channel =
        Grpc.newChannelBuilderForAddress(
                "127.0.0.1",
                grpcPort,
                TlsChannelCredentials.newBuilder().trustManager(ca.toFile()).build())
            .overrideAuthority("envoy-ratelimit." + NAMESPACE)
            .build();
    var rls = RateLimitServiceGrpc.newBlockingStub(channel);
    RateLimitRequest call = request(DOMAIN, descriptor(ROUTE, ROUTE, MATCH, MATCH));
    List<Code> codes = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      codes.add(rls.withDeadlineAfter(10, TimeUnit.SECONDS).shouldRateLimit(call).getOverallCode());
    }
    return codes;
  }

  /** The process's own view: uid/gid 65534, no capabilities, no_new_privs, a read-only /. */
  private static void assertRunsAsEnvoyGatewaySays(long pid) throws IOException {
    List<String> status =
        Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
            .map(String::stripTrailing)
            .toList();
    String nobody = ReadOnlyContainer.NOBODY + "";
    assertThat(status)
        .contains(
            "Uid:\t" + String.join("\t", nobody, nobody, nobody, nobody),
            "Gid:\t" + String.join("\t", nobody, nobody, nobody, nobody),
            "Groups:",
            "CapEff:\t0000000000000000",
            "CapBnd:\t0000000000000000",
            "NoNewPrivs:\t1");
    List<String> rootMount =
        Files.readAllLines(Path.of("/proc/" + pid + "/mountinfo")).stream()
            .map(line -> List.of(line.split(" ")))
            .filter(fields -> fields.get(4).equals("/"))
            .map(fields -> fields.get(5))
            .toList();
    assertThat(rootMount).as("options of the mount at / as the process sees it").hasSize(1);
    assertThat(rootMount.get(0).split(",")).contains("ro");
  }

  /** Netty's epoll and OpenSSL libraries mapped from the image's /app/native, not from /tmp. */
  private static void assertNativeLibrariesLoadedFromTheImage(long pid) throws IOException {
    List<String> libraries =
        Files.readAllLines(Path.of("/proc/" + pid + "/maps")).stream()
            .filter(line -> line.contains("netty"))
            .map(line -> line.substring(line.lastIndexOf(' ') + 1))
            .distinct()
            .toList();
    assertThat(libraries)
        .anyMatch(
            path ->
                path.matches(
                    ".*/app/native/libio_grpc_netty_shaded_netty_transport_native_epoll_\\w+\\.so"))
        .anyMatch(
            path ->
                path.matches(
                    ".*/app/native/libio_grpc_netty_shaded_netty_tcnative_linux_\\w+\\.so"))
        .allMatch(path -> path.contains("/app/native/"));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
