package dev.sluice.refstats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StatsdMapperTest {
  private static final StatsdMapper DEFAULT = StatsdMapper.referenceDefault(false);

  private static StatsdMapper mapper(String yaml) {
    return MapperFileParser.parse(yaml, "test.yaml");
  }

  private static Mapped.Series series(Mapped mapped) {
    assertThat(mapped).isInstanceOf(Mapped.Series.class);
    return (Mapped.Series) mapped;
  }

  @Test
  void referenceDefault_oneLevelKey_domainAndKey1() {
    Mapped.Series hits =
        series(DEFAULT.map("ratelimit.service.rate_limit.rl.foo_bar.total_hits", StatType.COUNTER));

    assertThat(hits.name()).isEqualTo("ratelimit_service_rate_limit_total_hits");
    assertThat(hits.labels()).isEqualTo(Map.of("domain", "rl", "key1", "foo_bar"));
  }

  @Test
  void referenceDefault_envoyGatewayKeys_domainKey1Key2() {
    String key1 =
        "httproute/default/http-ratelimit/rule/0/match/0/ratelimit_example"
            + "_httproute/default/http-ratelimit/rule/0/match/0/ratelimit_example";
    Mapped.Series over =
        series(
            DEFAULT.map(
                "ratelimit.service.rate_limit.default/eg/http."
                    + key1
                    + ".rule-0-match-0_rule-0-match-0.over_limit",
                StatType.COUNTER));

    assertThat(over.name()).isEqualTo("ratelimit_service_rate_limit_over_limit");
    assertThat(over.labels())
        .isEqualTo(
            Map.of(
                "domain",
                "default/eg/http",
                "key1",
                key1,
                "key2",
                "rule-0-match-0_rule-0-match-0"));
  }

  @Test
  void referenceDefault_deeperKeys_foldedIntoKey2() {
    Mapped.Series near =
        series(
            DEFAULT.map(
                "ratelimit.service.rate_limit.d.a_1.b_2.c_3.d_4.near_limit", StatType.COUNTER));

    assertThat(near.name()).isEqualTo("ratelimit_service_rate_limit_near_limit");
    assertThat(near.labels()).isEqualTo(Map.of("domain", "d", "key1", "a_1", "key2", "b_2"));
  }

  @Test
  void referenceDefault_unmappedStats_keepTheirEscapedName() {
    Mapped.Series cached =
        series(
            DEFAULT.map(
                "ratelimit.service.rate_limit.rl.foo.over_limit_with_local_cache",
                StatType.COUNTER));
    Mapped.Series notFound =
        series(
            DEFAULT.map(
                "ratelimit.service.rate_limit.default/eg/http.domain_not_found", StatType.COUNTER));

    assertThat(cached.name())
        .isEqualTo("ratelimit_service_rate_limit_rl_foo_over_limit_with_local_cache");
    assertThat(cached.labels()).isEmpty();
    assertThat(notFound.name())
        .isEqualTo("ratelimit_service_rate_limit_default_eg_http_domain_not_found");
  }

  @Test
  void referenceDefault_localCacheStatOfTwoLevelKey_countsAsOverLimit() {
    // The reference's regexes are unanchored: ".over_limit" is found inside
    // ".over_limit_with_local_cache", so statsd_exporter adds it to over_limit; so does Sluice.
    Mapped.Series cached =
        series(
            DEFAULT.map(
                "ratelimit.service.rate_limit.d.a_1.b_2.over_limit_with_local_cache",
                StatType.COUNTER));

    assertThat(cached.name()).isEqualTo("ratelimit_service_rate_limit_over_limit");
  }

  @Test
  void referenceDefault_serverAndServiceStats() {
    Mapped.Series requests =
        series(DEFAULT.map("ratelimit_server.ShouldRateLimit.total_requests", StatType.COUNTER));
    Mapped.Series time =
        series(DEFAULT.map("ratelimit_server.ShouldRateLimit.response_time", StatType.OBSERVER));
    Mapped.Series error =
        series(
            DEFAULT.map("ratelimit.service.call.should_rate_limit.redis_error", StatType.COUNTER));
    Mapped.Series loads =
        series(DEFAULT.map("ratelimit.service.config_load_success", StatType.COUNTER));

    assertThat(requests.name()).isEqualTo("ratelimit_service_total_requests");
    assertThat(requests.labels()).isEqualTo(Map.of("grpc_method", "ShouldRateLimit"));
    assertThat(time.name()).isEqualTo("ratelimit_service_response_time_seconds");
    assertThat(time.observer().kind()).isEqualTo(ObserverOptions.Kind.HISTOGRAM);
    assertThat(time.scale()).isEqualTo(0.001);
    assertThat(error.name()).isEqualTo("ratelimit_service_should_rate_limit_error");
    assertThat(error.labels()).isEqualTo(Map.of("err_type", "redis_error"));
    assertThat(loads.name()).isEqualTo("ratelimit_service_config_load_success");
    assertThat(loads.labels()).isEmpty();
  }

  @Test
  void referenceDefault_responseTimeInMillis_noScale() {
    Mapped.Series time =
        series(
            StatsdMapper.referenceDefault(true)
                .map("ratelimit_server.ShouldRateLimit.response_time", StatType.OBSERVER));

    assertThat(time.scale()).isEqualTo(1);
    assertThat(time.name()).isEqualTo("ratelimit_service_response_time_seconds");
  }

  @Test
  void envoyGatewayMapper_timerTypeSpelling_responseTimeUnscaled() throws Exception {
    String yaml;
    try (var in = getClass().getResourceAsStream("/refstats/envoy-gateway-statsd.yaml")) {
      yaml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    StatsdMapper mapper = mapper(yaml);

    Mapped.Series time =
        series(mapper.map("ratelimit_server.ShouldRateLimit.response_time", StatType.OBSERVER));
    Mapped.Series hits =
        series(mapper.map("ratelimit.service.rate_limit.d.a_1.b_2.total_hits", StatType.COUNTER));

    assertThat(time.observer().kind()).isEqualTo(ObserverOptions.Kind.HISTOGRAM);
    assertThat(time.scale()).isEqualTo(1);
    assertThat(hits.labels()).isEqualTo(Map.of("domain", "d", "key1", "a_1", "key2", "b_2"));
  }

  @Test
  void glob_segmentCountMustMatch_andStarIsOneSegment() {
    StatsdMapper mapper =
        mapper(
            """
            mappings:
              - match: a.*.c
                name: "x_$1"
            """);

    assertThat(series(mapper.map("a.b.c", StatType.COUNTER)).name()).isEqualTo("x_b");
    assertThat(series(mapper.map("a..c", StatType.COUNTER)).name()).isEqualTo("x_");
    assertThat(series(mapper.map("a.b.b.c", StatType.COUNTER)).name()).isEqualTo("a_b_b_c");
    assertThat(series(mapper.map("a.b", StatType.COUNTER)).name()).isEqualTo("a_b");
  }

  @Test
  void glob_references_asStatsdExporterFormatsThem() {
    StatsdMapper mapper =
        mapper(
            """
            mappings:
              - match: a.*.*
                name: "n_${2}_$1"
                labels:
                  braced: "${1}x"
                  glued: "$1x"
                  beyond: "<$3>"
                  plain: "v-$2"
            """);

    Mapped.Series mapped = series(mapper.map("a.one.two", StatType.COUNTER));

    assertThat(mapped.name()).isEqualTo("n_two_one");
    assertThat(mapped.labels())
        .isEqualTo(Map.of("braced", "onex", "glued", "", "beyond", "<>", "plain", "v-two"));
  }

  @Test
  void regex_unanchoredWithGoTemplates() {
    StatsdMapper mapper =
        mapper(
            """
            mappings:
              - match: 'svc\\.(?P<method>[a-z]+)\\.(\\d+)'
                match_type: regex
                name: "calls_$2"
                labels:
                  method: "$method"
                  dollar: "$$1"
                  glued: "${2}s"
                  named_glued: "$2s"
            """);

    Mapped.Series mapped = series(mapper.map("pre.svc.get.200.post", StatType.COUNTER));

    assertThat(mapped.name()).isEqualTo("calls_200");
    assertThat(mapped.labels())
        .isEqualTo(Map.of("method", "get", "dollar", "$1", "glued", "200s", "named_glued", ""));
  }

  @Test
  void map_globsBeforeRegexes_thenFileOrder() {
    StatsdMapper mapper =
        mapper(
            """
            mappings:
              - match: 'a\\.b'
                match_type: regex
                name: from_regex
              - match: a.*
                name: first_glob
              - match: a.b
                name: second_glob
            """);

    assertThat(series(mapper.map("a.b", StatType.COUNTER)).name()).isEqualTo("first_glob");
    assertThat(series(mapper.map("x.a.b", StatType.COUNTER)).name()).isEqualTo("from_regex");
  }

  @Test
  void matchMetricType_skipsOtherTypes() {
    StatsdMapper mapper =
        mapper(
            """
            mappings:
              - match: t.*
                match_metric_type: counter
                name: counted
              - match: 't\\.(.*)'
                match_type: regex
                match_metric_type: gauge
                name: gauged
              - match: 't\\.(.*)'
                match_type: regex
                match_metric_type: timer
                name: timed_$1
            """);

    assertThat(series(mapper.map("t.x", StatType.COUNTER)).name()).isEqualTo("counted");
    assertThat(series(mapper.map("t.x", StatType.GAUGE)).name()).isEqualTo("gauged");
    assertThat(series(mapper.map("t.x", StatType.OBSERVER)).name()).isEqualTo("timed_x");
  }

  @Test
  void actionDrop_dropsWhatItMatches() {
    StatsdMapper mapper =
        mapper(
            """
            mappings:
              - match: ratelimit.service.rate_limit.*.*.within_limit
                action: drop
                name: dropped
              - match: ratelimit.service.rate_limit.*.*.*
                name: "rl_$3"
            """);

    assertThat(mapper.map("ratelimit.service.rate_limit.d.k.within_limit", StatType.COUNTER))
        .isEqualTo(Mapped.DROP);
    assertThat(
            series(mapper.map("ratelimit.service.rate_limit.d.k.total_hits", StatType.COUNTER))
                .name())
        .isEqualTo("rl_total_hits");
  }

  @Test
  void emptyName_dropsTheEvent() {
    StatsdMapper mapper =
        mapper(
            """
            mappings:
              - match: '^(x*)$'
                match_type: regex
                name: "$1"
            """);

    assertThat(mapper.map("", StatType.COUNTER)).isEqualTo(Mapped.DROP);
  }

  @Test
  void timers_summaryByDefault_histogramWhenAsked() {
    StatsdMapper mapper =
        mapper(
            """
            defaults:
              buckets: [1, 5, 10]
            mappings:
              - match: h.*
                timer_type: histogram
                name: h
              - match: o.*
                observer_type: histogram
                histogram_options:
                  buckets: [0.5, 2]
                name: o
              - match: s.*
                name: s
                summary_options:
                  quantiles:
                    - quantile: 0.75
                      error: 0.01
            """);

    Mapped.Series h = series(mapper.map("h.x", StatType.OBSERVER));
    Mapped.Series o = series(mapper.map("o.x", StatType.OBSERVER));
    Mapped.Series s = series(mapper.map("s.x", StatType.OBSERVER));
    Mapped.Series unmapped = series(mapper.map("u.x", StatType.OBSERVER));

    assertThat(h.observer().kind()).isEqualTo(ObserverOptions.Kind.HISTOGRAM);
    assertThat(h.observer().buckets()).containsExactly(1.0, 5.0, 10.0);
    assertThat(o.observer().buckets()).containsExactly(0.5, 2.0);
    assertThat(s.observer().kind()).isEqualTo(ObserverOptions.Kind.SUMMARY);
    assertThat(s.observer().quantiles()).containsExactly(new ObserverOptions.Quantile(0.75, 0.01));
    assertThat(unmapped.observer().kind()).isEqualTo(ObserverOptions.Kind.SUMMARY);
    assertThat(unmapped.observer().quantiles()).isEqualTo(ObserverOptions.DEFAULT_QUANTILES);
  }

  @Test
  void defaults_observerTypeAndMatchType_applyToEveryMapping() {
    StatsdMapper mapper =
        mapper(
            """
            defaults:
              observer_type: histogram
              match_type: regex
            mappings:
              - match: 'x\\.(.*)'
                name: "x_$1"
            """);

    Mapped.Series x = series(mapper.map("x.y", StatType.OBSERVER));

    assertThat(x.name()).isEqualTo("x_y");
    assertThat(x.observer().kind()).isEqualTo(ObserverOptions.Kind.HISTOGRAM);
  }

  @Test
  void scaleAndHelp_carriedToTheSeries() {
    StatsdMapper mapper =
        mapper(
            """
            mappings:
              - match: t.*
                name: t_seconds
                scale: 0.001
                help: "Latency."
            """);

    Mapped.Series t = series(mapper.map("t.x", StatType.OBSERVER));

    assertThat(t.scale()).isEqualTo(0.001);
    assertThat(t.help()).isEqualTo("Latency.");
  }
}
