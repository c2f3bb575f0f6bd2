package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.RuleSet;
import dev.sluice.testing.InlineRules;
import org.junit.jupiter.api.Test;

/** {@code /rlconfig} prints what the reference's debug port prints for the same rules. */
class RlconfigHandlerTest {
  @Test
  void dump_onePerLimitNode_inTheReferenceFormat() {
    RuleSet rules =
        InlineRules.load(
            """
            domain: rl
            descriptors:
              - key: key1
                value: value1
                descriptors:
                  - key: subkey1
                    rate_limit: {unit: second, requests_per_unit: 10}
                    shadow_mode: true
              - key: path
                value: /health
                rate_limit: {unlimited: true}
              - key: tenant
                quota_mode: true
                rate_limit: {unit: hour, requests_per_unit: 100}
              - key: bucket
                rate_limit:
                  unit: minute
                  requests_per_unit: 2
                  algorithm: token_bucket
                  burst: 5
            """);

    assertThat(RlconfigHandler.dump(rules))
        .isEqualTo(
            """
            rl.bucket: unit=MINUTE requests_per_unit=2, shadow_mode: false, quota_mode: false, \
            algorithm: token_bucket, burst: 5
            rl.key1_value1.subkey1: unit=SECOND requests_per_unit=10, shadow_mode: true, \
            quota_mode: false
            rl.path_/health: unit=UNKNOWN requests_per_unit=0, shadow_mode: false, \
            quota_mode: false
            rl.tenant: unit=HOUR requests_per_unit=100, shadow_mode: false, quota_mode: true
            """);
  }

  @Test
  void dump_windowsOtherThanOneUnit_sayTheFieldAfterTheUnit() {
    RuleSet rules =
        InlineRules.load(
            """
            domain: rl
            descriptors:
              - key: quarter
                rate_limit: {unit: minute, unit_multiplier: 15, requests_per_unit: 100}
              - key: plan
                rate_limit: {unit: month, time_zone: Europe/Berlin, requests_per_unit: 3}
            """);

    assertThat(RlconfigHandler.dump(rules))
        .isEqualTo(
            """
            rl.plan: unit=MONTH time_zone=Europe/Berlin requests_per_unit=3, shadow_mode: false, \
            quota_mode: false
            rl.quarter: unit=MINUTE unit_multiplier=15 requests_per_unit=100, shadow_mode: false, \
            quota_mode: false
            """);
  }

  @Test
  void dump_noRules_isEmpty() {
    assertThat(RlconfigHandler.dump(RuleSet.empty())).isEmpty();
  }
}
