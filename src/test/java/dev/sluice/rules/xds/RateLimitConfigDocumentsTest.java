package dev.sluice.rules.xds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Rule;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import dev.sluice.rules.load.RuleProblem;
import dev.sluice.rules.xds.v3.RateLimitConfig;
import dev.sluice.rules.xds.v3.RateLimitDescriptor;
import dev.sluice.rules.xds.v3.RateLimitPolicy;
import dev.sluice.rules.xds.v3.RateLimitReplace;
import dev.sluice.rules.xds.v3.RateLimitUnit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pushed config loads into the same rules, and fails with the same messages, as its file. */
class RateLimitConfigDocumentsTest {
  private final RuleLoader loader = new RuleLoader(Algorithm.FIXED_WINDOW);

  @TempDir Path dir;

  @Test
  void load_validConfig_sameRulesAsTheEquivalentFile() throws IOException {
    RateLimitConfig config =
        RateLimitConfig.newBuilder()
            .setName("edge-config")
            .setDomain("edge")
            .addDescriptors(
                RateLimitDescriptor.newBuilder()
                    .setKey("remote_address")
                    .setRateLimit(policy(RateLimitUnit.MINUTE, 20).setName("per-ip")))
            .addDescriptors(
                RateLimitDescriptor.newBuilder()
                    .setKey("path")
                    .setValue("/api/*")
                    .setShadowMode(true)
                    .setQuotaMode(true)
                    .addDescriptors(
                        RateLimitDescriptor.newBuilder()
                            .setKey("method")
                            .setValue("POST")
                            .setRateLimit(
                                policy(RateLimitUnit.WEEK, 5)
                                    .addReplaces(RateLimitReplace.newBuilder().setName("per-ip")))))
            .addDescriptors(
                RateLimitDescriptor.newBuilder()
                    .setKey("api_key")
                    .setValue("monitoring")
                    .setRateLimit(RateLimitPolicy.newBuilder().setUnlimited(true)))
            .build();
    String yaml =
        """
        domain: edge
        descriptors:
          - key: remote_address
            rate_limit: {unit: minute, requests_per_unit: 20, name: per-ip}
          - key: path
            value: /api/*
            shadow_mode: true
            quota_mode: true
            descriptors:
              - key: method
                value: POST
                rate_limit:
                  unit: week
                  requests_per_unit: 5
                  replaces: [{name: per-ip}]
          - key: api_key
            value: monitoring
            rate_limit: {unlimited: true}
        """;

    LoadResult pushed = loader.load(List.of(RateLimitConfigDocuments.of(config, 0)), "v1");

    assertThat(pushed).isInstanceOf(LoadResult.Loaded.class);
    assertThat(withoutOrigin(((LoadResult.Loaded) pushed).rules().rules()))
        .isEqualTo(withoutOrigin(loadFile(yaml).rules().rules()));
    assertThat(((LoadResult.Loaded) pushed).version()).isEqualTo("v1");
  }

  @Test
  void load_invalidConfig_fileMessagesNamingTheResource() throws IOException {
    RateLimitConfig config =
        RateLimitConfig.newBuilder()
            .setName("broken")
            .setDomain("edge")
            .addDescriptors(
                RateLimitDescriptor.newBuilder()
                    .setKey("user")
                    .setRateLimit(RateLimitPolicy.newBuilder().setRequestsPerUnit(5)))
            .addDescriptors(
                RateLimitDescriptor.newBuilder()
                    .setKey("admin")
                    .setRateLimit(
                        RateLimitPolicy.newBuilder()
                            .setUnlimited(true)
                            .setUnit(RateLimitUnit.SECOND)))
            .build();
    String yaml =
        """
        domain: edge
        descriptors:
          - key: user
            rate_limit: {requests_per_unit: 5}
          - key: admin
            rate_limit: {unlimited: true, unit: second}
        """;

    LoadResult pushed = loader.load(List.of(RateLimitConfigDocuments.of(config, 0)), "v2");

    List<RuleProblem> problems = ((LoadResult.Failed) pushed).problems();
    assertThat(problems).extracting(RuleProblem::file).containsOnly(Path.of("xds:broken"));
    assertThat(problems)
        .extracting(RuleProblem::message)
        .isEqualTo(messages(loader.load(writeFile(yaml))));
    assertThat(problems.get(0).toString()).startsWith("xds:broken: ");
  }

  @Test
  void load_sameDomainInTwoResources_duplicateDomainNamesBoth() {
    RateLimitConfig first = RateLimitConfig.newBuilder().setName("a").setDomain("edge").build();
    RateLimitConfig second = RateLimitConfig.newBuilder().setName("b").setDomain("edge").build();

    LoadResult result =
        loader.load(
            List.of(RateLimitConfigDocuments.of(first, 0), RateLimitConfigDocuments.of(second, 1)),
            "v3");

    assertThat(((LoadResult.Failed) result).problems())
        .extracting(RuleProblem::toString)
        .containsExactly("xds:b: duplicate domain 'edge' (also in xds:a)");
  }

  @Test
  void of_unnamedResource_namedByItsPlace() {
    assertThat(RateLimitConfigDocuments.of(RateLimitConfig.getDefaultInstance(), 3).name())
        .isEqualTo("xds:resource#3");
  }

  private static RateLimitPolicy.Builder policy(RateLimitUnit unit, int requestsPerUnit) {
    return RateLimitPolicy.newBuilder().setUnit(unit).setRequestsPerUnit(requestsPerUnit);
  }

  private LoadResult.Loaded loadFile(String yaml) throws IOException {
    return (LoadResult.Loaded) loader.load(writeFile(yaml));
  }

  private Path writeFile(String yaml) throws IOException {
    return Files.writeString(dir.resolve("edge.yaml"), yaml);
  }

  private static List<String> messages(LoadResult result) {
    return ((LoadResult.Failed) result).problems().stream().map(RuleProblem::message).toList();
  }

  private static List<Rule> withoutOrigin(List<Rule> rules) {
    return rules.stream()
        .map(r -> new Rule(r.domain(), r.path(), r.kind(), r.name(), r.replaces(), r.flags(), ""))
        .toList();
  }
}
