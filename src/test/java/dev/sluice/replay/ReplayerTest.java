package dev.sluice.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.metrics.SpaceSaving;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.RuleSet;
import dev.sluice.testing.InlineRules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small capture whose per-rule numbers are worked out by hand below, replayed through the real
 * limiter; and the same capture twice gives the same report.
 */
class ReplayerTest {
  private static final String RULES_A =
      """
      domain: shop
      descriptors:
        - key: user
          rate_limit: {unit: minute, requests_per_unit: 3}
        - key: path
          value: /checkout
          shadow_mode: true
          rate_limit: {unit: minute, requests_per_unit: 1}
      """;

  /** B raises the per-user limit from 3 to 4. */
  private static final String RULES_B =
      RULES_A.replace("requests_per_unit: 3", "requests_per_unit: 4");

  /** The start of a minute, so every request falls in one window. */
  private static final long T0 = 1_700_000_040_000L;

  /**
   * Second 0: a a a b (4 requests); second 1: a b /checkout; second 2: a /checkout /checkout.
   *
   * <p>By hand, rules A: user: 7 requests; a is allowed 3 times and refused 2 (its 4th and 5th), b
   * allowed twice: allowed 5, refused 2, top a (2). checkout (shadow, limit 1): 3 requests, all
   * answered OK, the 2nd and 3rd over the limit: shadow 2. Peak 4 decisions/s; each request counts
   * one fixed-window descriptor = 1 Redis operation (one MULTI/EXEC of INCRBY and PEXPIRE), so peak
   * 4/s, and 10 commands over the 3 simulated seconds (0..2.5 s, rounded up) = 3.3/s. Rules B: a's
   * 5th is the only refusal.
   */
  private static final List<CapturedRequest> CAPTURE =
      List.of(
          request(0, "user", "a"),
          request(100, "user", "a"),
          request(200, "user", "b"),
          request(300, "user", "a"),
          request(1000, "user", "a"),
          request(1100, "path", "/checkout"),
          request(1200, "user", "b"),
          request(2000, "path", "/checkout"),
          request(2100, "user", "a"),
          request(2500, "path", "/checkout"));

  @Test
  void replay_smallCapture_givesTheHandComputedNumbers(@TempDir Path dir) throws Exception {
    ReplayReport report = replay(RULES_A, write(dir));

    assertThat(report.requests()).isEqualTo(10);
    assertThat(report.peakDecisionsPerSecond()).isEqualTo(4);
    assertThat(report.peakRedisCommandsPerSecond()).isEqualTo(4);
    assertThat(report.meanRedisCommandsPerSecond())
        .isCloseTo(10 / 3.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(report.rules())
        .containsExactly(
            new ReplayReport.RuleReport(
                "shop.path_/checkout",
                "1 per minute, fixed_window",
                3,
                3,
                0,
                2,
                2,
                List.of(new SpaceSaving.Counted<>("path=/checkout", 2, 0))),
            new ReplayReport.RuleReport(
                "shop.user",
                "3 per minute, fixed_window",
                7,
                5,
                2,
                0,
                4,
                List.of(new SpaceSaving.Counted<>("user=a", 2, 0))));
  }

  @Test
  void compare_raisedLimit_showsTheRefusalsItRemoves(@TempDir Path dir) throws Exception {
    Path capture = write(dir);
    ReplayReport a = replay(RULES_A, capture);
    ReplayReport b = replay(RULES_B, capture);

    assertThat(b.rules().get(1).refused()).isEqualTo(1);
    String text = ReplayText.compare(a, b);
    // 2 of 7 refused (28.6%) becomes 1 of 7 (14.3%).
    assertThat(text).containsPattern("shop\\.user +7 +7 +2 +1 +0 +0 +-14\\.3%");
    assertThat(text).contains("B limits most: user=a (1)");
    assertThat(text)
        .contains("  limit: A 3 per minute, fixed_window; B 4 per minute, fixed_window\n")
        .contains("  limit: 1 per minute, fixed_window\n");
  }

  @Test
  void replay_sameInputTwice_sameOutput(@TempDir Path dir) throws Exception {
    Path capture = write(dir);

    assertThat(ReplayText.render(replay(RULES_A, capture)))
        .isEqualTo(ReplayText.render(replay(RULES_A, capture)));
  }

  @Test
  void replay_severalInstancesSharingTheStore_decideAsOne(@TempDir Path dir) throws Exception {
    Path capture = write(dir);
    ReplayReport one = replay(RULES_A, capture);
    ReplayReport three;
    try (CaptureFile file = new CaptureFile(capture)) {
      three =
          Replayer.replay(
              InlineRules.load(RULES_A),
              file,
              new Replayer.Settings(Algorithm.FIXED_WINDOW, 3, false));
    }

    assertThat(three).isEqualTo(one);
  }

  @Test
  void render_eachRule_showsItsLimitWithTheWindow(@TempDir Path dir) throws Exception {
    String rules =
        """
        domain: shop
        descriptors:
          - key: user
            rate_limit: {unit: minute, unit_multiplier: 15, requests_per_unit: 3}
          - key: path
            rate_limit: {unit: month, time_zone: Asia/Kolkata, requests_per_unit: 1}
        """;

    String text = ReplayText.render(replay(rules, write(dir)));

    assertThat(text)
        .containsPattern("shop\\.user .* 3 per 15 minutes, fixed_window\n")
        .containsPattern("shop\\.path .* 1 per calendar month in Asia/Kolkata, fixed_window\n");
  }

  /** 2 per 15 minutes: the windows start at :45 UTC whatever the capture's first second is. */
  @Test
  void replay_fifteenMinuteWindow_resetsAtTheEpochAlignedBoundary(@TempDir Path dir)
      throws Exception {
    String rules =
        """
        domain: shop
        descriptors:
          - key: user
            rate_limit: {unit: minute, unit_multiplier: 15, requests_per_unit: 2}
        """;
    long quarterEnd = 1_700_000_100_000L; // 22:15:00 UTC
    List<String> lines = new ArrayList<>();
    for (long offset : new long[] {-60_000, -30_000, -1, 0, 1}) {
      lines.add(
          new CapturedRequest(
                  quarterEnd + offset, "shop", List.of(List.of(new Entry("user", "a"))), 0)
              .toJsonLine());
    }
    Path capture = Files.write(dir.resolve("quarter.jsonl"), lines);

    ReplayReport.RuleReport user = replay(rules, capture).rules().get(0);

    assertThat(user.limit()).isEqualTo("2 per 15 minutes, fixed_window");
    assertThat(user.allowed()).as("two before 22:15, two after").isEqualTo(4);
    assertThat(user.refused()).isEqualTo(1);
  }

  @Test
  void captureFile_badLine_namesFileAndLine(@TempDir Path dir) throws Exception {
    Path capture = dir.resolve("bad.jsonl");
    Files.writeString(capture, request(0, "user", "a").toJsonLine() + "\n{\"ts\":1}\n");

    try (CaptureFile file = new CaptureFile(capture)) {
      file.next();
      org.assertj.core.api.Assertions.assertThatThrownBy(file::hasNext)
          .hasMessage(capture + ":2: missing 'domain'");
    }
  }

  private static ReplayReport replay(String rules, Path capture) throws Exception {
    RuleSet ruleSet = InlineRules.load(rules);
    try (CaptureFile file = new CaptureFile(capture)) {
      return Replayer.replay(
          ruleSet, file, new Replayer.Settings(Algorithm.FIXED_WINDOW, 1, false));
    }
  }

  private static Path write(Path dir) throws Exception {
    List<String> lines = new ArrayList<>();
    CAPTURE.forEach(r -> lines.add(r.toJsonLine()));
    Path capture = dir.resolve("capture.jsonl");
    Files.write(capture, lines);
    return capture;
  }

  private static CapturedRequest request(long offsetMillis, String key, String value) {
    return new CapturedRequest(
        T0 + offsetMillis, "shop", List.of(List.of(new Entry(key, value))), 0);
  }
}
