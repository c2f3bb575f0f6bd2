package dev.sluice.refstats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MapperFileParserTest {
  private static String problem(String yaml) {
    try {
      MapperFileParser.parse(yaml, "conf.yaml");
    } catch (MapperException e) {
      return e.getMessage();
    }
    throw new AssertionError("no problem found in:\n" + yaml);
  }

  @Test
  void parse_unknownMappingKey_namedAtItsLine() {
    assertThat(
            problem(
                """
                mappings:
                  - match: a.b
                    name: ab
                    lables:
                      x: "1"
                """))
        .startsWith("conf.yaml:4: unknown key 'lables' in a mapping; known: [action, buckets,");
  }

  @Test
  void parse_unsupportedFeatures_namedWithWhy() {
    assertThat(
            problem(
                """
                mappings:
                  - match: a.b
                    name: ab
                    ttl: 5m
                """))
        .isEqualTo(
            "conf.yaml:4: 'ttl' is not supported: Sluice never expires a series (it keeps them,"
                + " as statsd_exporter without a ttl)");
    assertThat(
            problem(
                """
                defaults:
                  glob_disable_ordering: true
                """))
        .startsWith("conf.yaml:2: 'glob_disable_ordering' is not supported");
    assertThat(
            problem(
                """
                mappings:
                  - match: a.b
                    name: ab
                    observer_type: histogram
                    histogram_options:
                      native_histogram_bucket_factor: 1.1
                """))
        .startsWith("conf.yaml:6: 'native_histogram_bucket_factor' is not supported");
    assertThat(
            problem(
                """
                defaults:
                  summary_options:
                    max_age: 5m
                """))
        .startsWith("conf.yaml:3: 'max_age' is not supported");
  }

  @Test
  void parse_unknownTopLevelKey_isAnError() {
    assertThat(problem("mapping:\n  - match: a\n    name: a\n"))
        .isEqualTo(
            "conf.yaml:1: unknown key 'mapping' in the mapper file; known: [defaults, mappings]");
  }

  @Test
  void parse_badValues_namedAtTheirLine() {
    assertThat(problem("mappings:\n  - match: a.b\n"))
        .isEqualTo("conf.yaml:2: the mapping sets no 'name'");
    assertThat(problem("mappings:\n  - match: a.b\n    name: \"a-b\"\n"))
        .startsWith("conf.yaml:3: invalid name 'a-b'");
    assertThat(problem("mappings:\n  - match: a.b*\n    name: ab\n"))
        .startsWith("conf.yaml:2: invalid match 'a.b*'");
    assertThat(problem("mappings:\n  - match: '(a'\n    match_type: regex\n    name: ab\n"))
        .startsWith("conf.yaml:2: invalid regex '(a'");
    assertThat(problem("mappings:\n  - match: a.b\n    name: ab\n    labels:\n      x: \"1\"\n"))
        .isEqualTo("conf.yaml:5: invalid name 'x' in 'labels' (need [a-zA-Z_][a-zA-Z0-9_]+)");
    assertThat(problem("mappings:\n  - match: a.b\n    name: ab\n    match_metric_type: histo\n"))
        .startsWith("conf.yaml:4: invalid match_metric_type 'histo'");
    assertThat(problem("mappings:\n  - match: a.b\n    name: ab\n    action: keep\n"))
        .isEqualTo("conf.yaml:4: invalid action 'keep': map or drop");
    assertThat(problem("mappings:\n  - match: a.b\n    name: ab\n    timer_type: gauge\n"))
        .isEqualTo("conf.yaml:4: invalid timer_type 'gauge': histogram or summary");
    assertThat(problem("mappings:\n  - match: a.b\n    name: ab\n    scale: fast\n"))
        .isEqualTo("conf.yaml:4: 'scale' must be a number: fast");
  }

  @Test
  void parse_histogramWithSummaryOptions_isAnError() {
    assertThat(
            problem(
                """
                mappings:
                  - match: a.b
                    name: ab
                    observer_type: histogram
                    summary_options:
                      quantiles:
                        - quantile: 0.5
                          error: 0.05
                """))
        .isEqualTo(
            "conf.yaml:6: cannot use histogram observer and summary options at the same time");
  }

  @Test
  void parse_yamlSyntaxError_namesItsLine() {
    assertThat(problem("mappings:\n  - match: a.b\n    name: [ab\n"))
        .startsWith("conf.yaml:4: invalid YAML");
  }

  @Test
  void parse_emptyFile_noMappings() {
    StatsdMapper mapper = MapperFileParser.parse("", "conf.yaml");

    assertThat(mapper.mappings()).isEmpty();
  }

  @Test
  void fromFile_messageNamesTheFile(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("conf.yaml"), "mappings:\n  - match: a.b\n");

    assertThatThrownBy(() -> StatsdMapper.fromFile(file))
        .isInstanceOf(MapperException.class)
        .hasMessage(file + ":2: the mapping sets no 'name'");
  }
}
