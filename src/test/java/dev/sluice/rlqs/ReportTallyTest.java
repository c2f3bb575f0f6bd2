package dev.sluice.rlqs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The reported totals per rule, and their cap. */
class ReportTallyTest {

  @Test
  void add_sameRuleTwice_sumsAllowedAndDenied() {
    ReportTally tally = new ReportTally();

    tally.add("edge", "name_api", 7, 2);
    tally.add("edge", "name_api", 3, 1);
    tally.add("edge", "_none", 5, 0);

    assertThat(tally.totals().get(new ReportTally.RuleKey("edge", "name_api")))
        .containsExactly(10, 3);
    assertThat(tally.totals().get(new ReportTally.RuleKey("edge", "_none"))).containsExactly(5, 0);
  }

  @Test
  void add_moreRulesThanTheCap_theRestShareOther() {
    ReportTally tally = new ReportTally();
    for (int i = 0; i < ReportTally.MAX_RULES; i++) {
      tally.add("edge", "rule_" + i, 1, 0);
    }

    tally.add("edge", "one_more", 4, 1);
    tally.add("edge", "and_another", 2, 0);

    assertThat(tally.totals()).hasSize(ReportTally.MAX_RULES + 1);
    assertThat(tally.totals().get(new ReportTally.RuleKey("edge", ReportTally.OTHER_RULE)))
        .containsExactly(6, 1);
    assertThat(tally.totals()).doesNotContainKey(new ReportTally.RuleKey("edge", "one_more"));
  }
}
