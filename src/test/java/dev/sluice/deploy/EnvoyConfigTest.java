package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit;
import io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit.XRateLimitHeadersRFCVersion;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code envoy/envoy.yaml} is a valid Envoy bootstrap wired to Sluice the way Sluice runs. */
class EnvoyConfigTest {
  private final EnvoyConfig envoy = EnvoyConfig.load();

  @Test
  void bootstrap_edgeListener_rateLimitsBeforeRouting() {
    List<String> filters =
        envoy.connectionManager(EnvoyConfig.EDGE_LISTENER).getHttpFiltersList().stream()
            .map(HttpFilter::getName)
            .toList();

    assertThat(filters).containsExactly(EnvoyConfig.RATE_LIMIT_FILTER, "envoy.filters.http.router");
  }

  @Test
  void rateLimitFilter_domain_isTheDemoRulesDomain() {
    LoadResult rules = new RuleLoader(Algorithm.FIXED_WINDOW).load(Path.of("config/rules"));

    assertThat(rules).isInstanceOf(LoadResult.Loaded.class);
    assertThat(((LoadResult.Loaded) rules).rules().domains())
        .containsExactly(envoy.rateLimitFilter().getDomain());
  }

  @Test
  void rateLimitFilter_failsOpenQuicklyWithHeadersOverRlsV3() {
    RateLimit filter = envoy.rateLimitFilter();

    assertThat(filter.getFailureModeDeny()).isFalse();
    assertThat(filter.getTimeout().getSeconds()).isZero();
    assertThat(filter.getTimeout().getNanos()).isBetween(1, 100_000_000);
    assertThat(filter.getEnableXRatelimitHeaders())
        .isEqualTo(XRateLimitHeadersRFCVersion.DRAFT_VERSION_03);
    assertThat(filter.getRateLimitService().getTransportApiVersion()).isEqualTo(ApiVersion.V3);
    assertThat(filter.getRateLimitService().getGrpcService().getEnvoyGrpc().getClusterName())
        .isEqualTo("sluice");
  }

  @Test
  void sluiceCluster_speaksHttp2ToTheComposeServiceOnTheDefaultGrpcPort() throws Exception {
    Cluster cluster = envoy.cluster("sluice");
    HttpProtocolOptions options =
        cluster
            .getTypedExtensionProtocolOptionsOrThrow(
                "envoy.extensions.upstreams.http.v3.HttpProtocolOptions")
            .unpack(HttpProtocolOptions.class);
    SocketAddress address = envoy.onlyEndpoint("sluice");

    assertThat(options.getExplicitHttpConfig().hasHttp2ProtocolOptions()).isTrue();
    assertThat(cluster.getType()).isEqualTo(Cluster.DiscoveryType.STRICT_DNS);
    assertThat(ComposeFile.load().serviceNames()).contains(address.getAddress());
    assertThat(address.getPortValue())
        .isEqualTo(SluiceCommandLine.serveDefault("--grpc-port"))
        .isEqualTo(8081);
  }

  @Test
  void edgeRoutes_allGoToAnUpstreamCluster_soTheFilterAppliesToThem() {
    List<Route> routes =
        envoy
            .connectionManager(EnvoyConfig.EDGE_LISTENER)
            .getRouteConfig()
            .getVirtualHosts(0)
            .getRoutesList();

    assertThat(routes).isNotEmpty();
    for (Route route : routes) {
      assertThat(route.getActionCase()).isEqualTo(Route.ActionCase.ROUTE);
      assertThat(envoy.cluster(route.getRoute().getCluster())).isNotNull();
      assertThat(route.getRoute().getRateLimitsList()).isNotEmpty();
    }
  }

  @Test
  void admin_listensOn9901() {
    assertThat(envoy.bootstrap().getAdmin().getAddress().getSocketAddress().getPortValue())
        .isEqualTo(9901);
  }

  /** Each mutation must exist in the file (else the test proves nothing) and must be rejected. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "failure_mode_deny: false | failure_mode_denny: false",
        "descriptor_key: api_key | descriptorkey: api_key",
        "use_remote_address: true | use_remote_addr: true",
        "http2_protocol_options: {} | http2_protocol_option: {}",
        "port_value: 8081 | port_value: eighty-one",
        "enable_x_ratelimit_headers: DRAFT_VERSION_03 | enable_x_ratelimit_headers: DRAFT_03",
        "router.v3.Router | router.v3.Routr",
      })
  void parse_mutatedCopy_isRejected(String original, String mutation) throws IOException {
    String yaml = Files.readString(EnvoyConfig.FILE);
    assertThat(yaml).contains(original);

    String mutated = yaml.replaceFirst(Pattern.quote(original), mutation);

    assertThatThrownBy(() -> EnvoyConfig.parse(mutated))
        .isInstanceOf(InvalidProtocolBufferException.class);
  }

  /** README "Run without Docker" points a copy at a local Sluice with one sed substitution. */
  @Test
  void readmeLocalCopy_pointsOnlyTheSluiceClusterAtLoopback() throws IOException {
    Matcher sed =
        Pattern.compile("sed 's/([^/]+)/([^/]+)/' envoy/envoy.yaml")
            .matcher(Files.readString(Path.of("README.md")));
    assertThat(sed.find()).as("sed command in README").isTrue();

    EnvoyConfig local =
        new EnvoyConfig(
            EnvoyConfig.parse(
                Files.readString(EnvoyConfig.FILE).replaceAll(sed.group(1), sed.group(2))));

    assertThat(local.onlyEndpoint("sluice").getAddress()).isEqualTo("127.0.0.1");
    assertThat(local.onlyEndpoint("sluice").getPortValue()).isEqualTo(8081);
    assertThat(local.bootstrap().toBuilder().clearStaticResources().build())
        .isEqualTo(envoy.bootstrap().toBuilder().clearStaticResources().build());
    assertThat(local.bootstrap().getStaticResources().getListenersList())
        .isEqualTo(envoy.bootstrap().getStaticResources().getListenersList());
    assertThat(local.cluster("upstream")).isEqualTo(envoy.cluster("upstream"));
  }

  @Test
  void parse_unchangedFile_isAccepted() throws IOException {
    String yaml = Files.readString(EnvoyConfig.FILE);

    assertThat(EnvoyConfig.parse(yaml).getStaticResources().getListenersCount()).isEqualTo(2);
  }
}
