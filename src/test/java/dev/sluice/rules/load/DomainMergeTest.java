package dev.sluice.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RulesConfig.Reading;
import dev.sluice.rules.Algorithm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MERGE_DOMAIN_CONFIG: files adding descriptors to one domain; a real conflict stays an error. */
class DomainMergeTest {
  private static final RuleLoader MERGING =
      new RuleLoader(Algorithm.FIXED_WINDOW, Set.of(Reading.MERGE_DOMAINS));

  @TempDir Path dir;

  private void write(String name, String yaml) throws Exception {
    Files.writeString(dir.resolve(name), yaml);
  }

  @Test
  void twoFilesOneDomain_mergedWhenOn_duplicateDomainWhenOff() throws Exception {
    write(
        "a.yaml",
        "domain: shop\ndescriptors:\n  - key: user\n    rate_limit: {unit: minute, requests_per_unit: 5}\n");
    write(
        "b.yaml",
        "domain: shop\ndescriptors:\n  - key: path\n    rate_limit: {unit: second, requests_per_unit: 1}\n");

    LoadResult merged = MERGING.load(dir);
    LoadResult separate = new RuleLoader(Algorithm.FIXED_WINDOW).load(dir);

    assertThat(merged).isInstanceOf(LoadResult.Loaded.class);
    assertThat(((LoadResult.Loaded) merged).rules().domains()).containsExactly("shop");
    assertThat(((LoadResult.Loaded) merged).rules().rules()).hasSize(2);
    assertThat(separate).isInstanceOf(LoadResult.Failed.class);
    assertThat(((LoadResult.Failed) separate).problems().get(0).message())
        .contains("duplicate domain 'shop'");
  }

  @Test
  void sameTopLevelDescriptorInTwoFiles_isAFileLineError() throws Exception {
    write(
        "a.yaml",
        "domain: shop\ndescriptors:\n  - key: user\n    rate_limit: {unit: minute, requests_per_unit: 5}\n");
    write(
        "b.yaml",
        "domain: shop\ndescriptors:\n  - key: path\n    rate_limit: {unit: second, requests_per_unit: 1}\n  - key: user\n    rate_limit: {unit: hour, requests_per_unit: 9}\n");

    LoadResult result = MERGING.load(dir);

    assertThat(result).isInstanceOf(LoadResult.Failed.class);
    RuleProblem problem = ((LoadResult.Failed) result).problems().get(0);
    assertThat(problem.file()).isEqualTo(dir.resolve("b.yaml"));
    assertThat(problem.line()).isEqualTo(5);
    assertThat(problem.message()).contains("duplicate descriptor 'shop.user'");
  }
}
