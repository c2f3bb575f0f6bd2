package dev.sluice.deploy;

import static dev.sluice.testing.RlsRequests.descriptor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Match;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The descriptors {@code envoy/envoy.yaml}'s actions produce, and that together they reach every
 * rule in {@code config/rules}: a rule no request can reach through Envoy fails the build.
 */
class EnvoyRateLimitFilterTest {
  private static final String CLIENT = "203.0.113.7";

  private final EnvoyRateLimitFilter filter = new EnvoyRateLimitFilter(EnvoyConfig.load());

  @Test
  void rootPath_noApiKey_perIpDescriptorOnly() {
    assertThat(filter.descriptors(ClientRequest.get(CLIENT, "/")))
        .containsExactly(descriptor("remote_address", CLIENT));
  }

  @Test
  void rootPath_apiKey_addsTheApiKeyDescriptor() {
    ClientRequest request = ClientRequest.get(CLIENT, "/").withHeader("X-API-Key", "alice");

    assertThat(filter.descriptors(request))
        .containsExactly(descriptor("remote_address", CLIENT), descriptor("api_key", "alice"));
  }

  @Test
  void apiPath_pathAndMethodInOneDescriptor_plusTheShadowDescriptor() {
    assertThat(filter.descriptors(ClientRequest.post(CLIENT, "/api/orders")))
        .containsExactly(
            descriptor("remote_address", CLIENT),
            descriptor("path", "/api/orders", "method", "POST"),
            descriptor("generic_key", "shadow-per-ip", "remote_address", CLIENT));
  }

  @Test
  void apiPath_queryString_isPartOfThePathValue() {
    assertThat(filter.descriptors(ClientRequest.post(CLIENT, "/api/orders?page=2")))
        .contains(descriptor("path", "/api/orders?page=2", "method", "POST"));
  }

  @Test
  void request_domain_isTheFilterDomain() {
    assertThat(filter.request(ClientRequest.get(CLIENT, "/")).orElseThrow().getDomain())
        .isEqualTo("edge");
  }

  @Test
  void skipIfAbsent_headerMissing_keepsTheDescriptorWithoutThatEntry() throws Exception {
    String yaml =
        Files.readString(EnvoyConfig.FILE)
            .replaceFirst(
                "(?m)^(\\s*)descriptor_key: api_key$",
                "$1descriptor_key: api_key\n$1skip_if_absent: true");
    EnvoyRateLimitFilter skipping =
        new EnvoyRateLimitFilter(new EnvoyConfig(EnvoyConfig.parse(yaml)));

    assertThat(skipping.descriptors(ClientRequest.get(CLIENT, "/api/catalog")))
        .contains(RateLimitDescriptor.getDefaultInstance());
    assertThat(filter.descriptors(ClientRequest.get(CLIENT, "/api/catalog")))
        .doesNotContain(RateLimitDescriptor.getDefaultInstance());
  }

  @Test
  void demoRequests_reachEveryRuleInConfigRules() {
    RuleSet rules =
        ((LoadResult.Loaded) new RuleLoader(Algorithm.FIXED_WINDOW).load(Path.of("config/rules")))
            .rules();
    List<ClientRequest> demo =
        List.of(
            ClientRequest.get(CLIENT, "/"),
            ClientRequest.get(CLIENT, "/").withHeader("x-api-key", "alice"),
            ClientRequest.get(CLIENT, "/").withHeader("x-api-key", "monitoring"),
            ClientRequest.post(CLIENT, "/api/orders"),
            ClientRequest.get(CLIENT, "/api/orders"),
            ClientRequest.get(CLIENT, "/api/catalog"));

    Set<String> reached = new TreeSet<>();
    for (ClientRequest request : demo) {
      for (RateLimitDescriptor descriptor : filter.descriptors(request)) {
        rules
            .match("edge", entries(descriptor))
            .map(Match::rule)
            .map(Rule::id)
            .ifPresent(reached::add);
      }
    }

    assertThat(reached)
        .containsExactlyInAnyOrderElementsOf(rules.rules().stream().map(Rule::id).toList());
  }

  private static List<Entry> entries(RateLimitDescriptor descriptor) {
    return descriptor.getEntriesList().stream()
        .map(entry -> new Entry(entry.getKey(), entry.getValue()))
        .toList();
  }
}
