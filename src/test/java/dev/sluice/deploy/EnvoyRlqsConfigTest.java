package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.xds.type.matcher.v3.Matcher;
import com.google.gson.Gson;
import com.google.protobuf.util.JsonFormat;
import dev.sluice.rlqs.BucketReport;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.extensions.filters.http.rate_limit_quota.v3.RateLimitQuotaBucketSettings;
import io.envoyproxy.envoy.extensions.filters.http.rate_limit_quota.v3.RateLimitQuotaFilterConfig;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import io.envoyproxy.envoy.type.matcher.v3.HttpRequestHeaderMatchInput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * {@code envoy/rlqs.yaml}, the RLQS example of docs/rlqs.md, is a valid Envoy bootstrap (read as
 * {@link EnvoyConfig} reads {@code envoy.yaml}: unknown fields and unknown {@code typed_config}
 * types fail), and its buckets reach the demo rules the comments say they do.
 */
class EnvoyRlqsConfigTest {
  private static final Path FILE = Path.of("envoy/rlqs.yaml");
  private static final JsonFormat.TypeRegistry TYPES =
      JsonFormat.TypeRegistry.newBuilder()
          .add(HttpConnectionManager.getDescriptor())
          .add(RateLimitQuotaFilterConfig.getDescriptor())
          .add(RateLimitQuotaBucketSettings.getDescriptor())
          .add(HttpRequestHeaderMatchInput.getDescriptor())
          .add(Router.getDescriptor())
          .add(HttpProtocolOptions.getDescriptor())
          .build();

  private static RateLimitQuotaFilterConfig filter() throws Exception {
    Object tree = new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(FILE));
    Bootstrap.Builder bootstrap = Bootstrap.newBuilder();
    JsonFormat.parser().usingTypeRegistry(TYPES).merge(new Gson().toJson(tree), bootstrap);
    HttpConnectionManager manager =
        bootstrap
            .getStaticResources()
            .getListeners(0)
            .getFilterChains(0)
            .getFilters(0)
            .getTypedConfig()
            .unpack(HttpConnectionManager.class);
    HttpFilter quota = manager.getHttpFilters(0);
    assertThat(quota.getName()).isEqualTo("envoy.filters.http.rate_limit_quota");
    return quota.getTypedConfig().unpack(RateLimitQuotaFilterConfig.class);
  }

  /**
   * The README's filter block parses as an Envoy {@code HttpFilter} (unknown fields fail) and is
   * this file's filter with its first matcher only, the rest left out for brevity.
   */
  @Test
  void readmeSnippet_isThisFilterAbbreviated() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    int section = readme.indexOf("## Run it as Envoy's Rate Limit Quota Service");
    assertThat(section).as("README's RLQS section").isPositive();
    int start = readme.indexOf("```yaml\n", section) + "```yaml\n".length();
    String block = readme.substring(start, readme.indexOf("```", start));
    Object tree = new Yaml(new SafeConstructor(new LoaderOptions())).load(block);
    HttpFilter.Builder snippet = HttpFilter.newBuilder();
    JsonFormat.parser()
        .usingTypeRegistry(TYPES)
        .merge(new Gson().toJson(((java.util.List<?>) tree).get(0)), snippet);
    RateLimitQuotaFilterConfig shown =
        snippet.getTypedConfig().unpack(RateLimitQuotaFilterConfig.class);
    RateLimitQuotaFilterConfig file = filter();

    assertThat(snippet.getName()).isEqualTo("envoy.filters.http.rate_limit_quota");
    assertThat(shown.getRlqsServer()).isEqualTo(file.getRlqsServer());
    assertThat(shown.getDomain()).isEqualTo(file.getDomain());
    Matcher.MatcherList.FieldMatcher shownMatcher =
        shown.getBucketMatchers().getMatcherList().getMatchers(0);
    Matcher.MatcherList.FieldMatcher fileMatcher =
        file.getBucketMatchers().getMatcherList().getMatchers(0);
    assertThat(shownMatcher.getPredicate()).isEqualTo(fileMatcher.getPredicate());
    RateLimitQuotaBucketSettings shownBucket =
        shownMatcher
            .getOnMatch()
            .getAction()
            .getTypedConfig()
            .unpack(RateLimitQuotaBucketSettings.class);
    RateLimitQuotaBucketSettings fileBucket =
        fileMatcher
            .getOnMatch()
            .getAction()
            .getTypedConfig()
            .unpack(RateLimitQuotaBucketSettings.class);
    assertThat(shownBucket)
        .isEqualTo(fileBucket.toBuilder().clearExpiredAssignmentBehavior().build());
  }

  @Test
  void rlqsFilter_talksToSluiceInTheDemoDomain() throws Exception {
    RateLimitQuotaFilterConfig filter = filter();

    assertThat(filter.getRlqsServer().getEnvoyGrpc().getClusterName()).isEqualTo("sluice");
    assertThat(filter.getDomain()).isEqualTo("edge");
  }

  @Test
  void bucketSettings_reportEverySecond_keysAsTheRulesName() throws Exception {
    Matcher matchers = filter().getBucketMatchers();
    RateLimitQuotaBucketSettings perKey =
        matchers
            .getMatcherList()
            .getMatchers(0)
            .getOnMatch()
            .getAction()
            .getTypedConfig()
            .unpack(RateLimitQuotaBucketSettings.class);
    RateLimitQuotaBucketSettings perPath =
        matchers
            .getOnNoMatch()
            .getAction()
            .getTypedConfig()
            .unpack(RateLimitQuotaBucketSettings.class);

    assertThat(perKey.getBucketIdBuilder().getBucketIdBuilderMap()).containsOnlyKeys("api_key");
    assertThat(perPath.getBucketIdBuilder().getBucketIdBuilderMap())
        .containsOnlyKeys("path", "method");
    assertThat(perKey.getReportingInterval().getSeconds()).isEqualTo(1);
    assertThat(perKey.getDenyResponseSettings().getHttpStatus().getCodeValue()).isEqualTo(429);
  }

  @Test
  void buckets_reachTheDemoRules() {
    LoadResult loaded = new RuleLoader(Algorithm.FIXED_WINDOW).load(Path.of("config/rules"));
    RuleSet rules = ((LoadResult.Loaded) loaded).rules();

    assertThat(BucketReport.describe(rules, "edge", Map.of("api_key", "k1"), 0))
        .contains("-> edge.api_key (2 per second, token_bucket, burst 5): token buckets");
    assertThat(BucketReport.describe(rules, "edge", Map.of("api_key", "monitoring"), 0))
        .endsWith(": ALLOW_ALL");
    assertThat(
            BucketReport.describe(
                rules, "edge", Map.of("method", "POST", "path", "/api/orders"), 0))
        .contains("-> edge.path_/api/orders.method_POST (5 per minute, fixed_window)");
  }
}
