package dev.sluice.refstats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatsdNamesTest {
  @Test
  void escape_invalidCharactersBecomeUnderscores() {
    assertThat(StatsdNames.escape("ratelimit.service.rate_limit.default/eg/http.domain_not_found"))
        .isEqualTo("ratelimit_service_rate_limit_default_eg_http_domain_not_found");
    assertThat(StatsdNames.escape("a-b--c---d")).isEqualTo("a_b_c_d");
    assertThat(StatsdNames.escape("9lives")).isEqualTo("_9lives");
    assertThat(StatsdNames.escape("naïve")).isEqualTo("na_ve");
    assertThat(StatsdNames.escape("ok_Name9")).isEqualTo("ok_Name9");
  }

  @Test
  void sanitize_statsdSeparatorsAndAddressDots() {
    assertThat(StatsdNames.sanitize("d.remote_address_10.0.0.1.path_/a:b|c"))
        .isEqualTo("d.remote_address_10_0_0_1.path_/a_b_c");
    assertThat(StatsdNames.sanitize("d.key_value.k2_v2")).isEqualTo("d.key_value.k2_v2");
  }

  @Test
  void ruleNames_underTheDomainAndRulePath() {
    assertThat(ReferenceStatNames.rule("rl", "foo_bar.baz", "total_hits"))
        .isEqualTo("ratelimit.service.rate_limit.rl.foo_bar.baz.total_hits");
    assertThat(ReferenceStatNames.rule("rl", "path_/api:second", "over_limit"))
        .isEqualTo("ratelimit.service.rate_limit.rl.path_/api_second.over_limit");
    assertThat(ReferenceStatNames.domainNotFound("default/eg/http"))
        .isEqualTo("ratelimit.service.rate_limit.default/eg/http.domain_not_found");
    assertThat(ReferenceStatNames.TOTAL_REQUESTS)
        .isEqualTo("ratelimit_server.ShouldRateLimit.total_requests");
  }
}
