package dev.sluice.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.CaptureConfig;
import dev.sluice.replay.CaptureFile;
import dev.sluice.replay.ReplayReport;
import dev.sluice.replay.Replayer;
import dev.sluice.rules.Algorithm;
import dev.sluice.testing.AdminClient;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.InlineRules;
import dev.sluice.testing.RlsRequests;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running Sluice captures every request (sample 1) it answers through the real RLS port;
 * replaying that capture through {@code sluice replay}'s {@link Replayer} gives, rule by rule, the
 * same allowed and refused counts as the answers the clients got, and the same shadow refusals as
 * the service's own metric. With hashed values too: the rules are key-only, so distinct values stay
 * distinct counters.
 */
class CaptureReplayIT {
  private static final String RULES =
      """
      domain: shop
      descriptors:
        - key: user
          rate_limit: {unit: second, requests_per_unit: 3}
        - key: ip
          rate_limit: {unit: second, requests_per_unit: 4, algorithm: token_bucket, burst: 6}
        - key: trial
          shadow_mode: true
          rate_limit: {unit: second, requests_per_unit: 2}
      """;

  private static final List<String> KEYS = List.of("user", "ip", "trial");

  @TempDir Path dir;

  @Test
  void captureThenReplay_plainValues_sameCountsPerRule() throws Exception {
    roundTrip(false);
  }

  @Test
  void captureThenReplay_hashedValues_sameCountsPerRuleAndNoValueInClear() throws Exception {
    roundTrip(true);
    String capture = Files.readString(dir.resolve("capture.jsonl"));
    assertThat(capture).doesNotContain("\"u1\"").doesNotContain("\"i0\"").contains("\"user\"");
  }

  private void roundTrip(boolean hash) throws Exception {
    FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
    Path file = dir.resolve("capture.jsonl");
    CaptureConfig capture = new CaptureConfig(Optional.of(file), 1.0, hash, 1 << 20, 2);
    Map<String, long[]> answered = new TreeMap<>();
    String metrics;
    try (RunningSluice sluice =
        RunningSluice.start(
            RULES,
            RunningSluice.config(RunningSluice.memoryStore()).toBuilder().capture(capture).build(),
            clock)) {
      Random random = new Random(42);
      for (int i = 0; i < 400; i++) {
        RateLimitRequest request = randomRequest(random);
        RateLimitResponse response = sluice.rls().shouldRateLimit(request);
        tally(answered, request, response);
        clock.advance(Duration.ofMillis(random.nextInt(60)));
      }
      metrics = new AdminClient(sluice.httpPort()).get("/metrics").body();
    }

    ReplayReport report;
    try (CaptureFile input = new CaptureFile(file)) {
      report =
          Replayer.replay(
              InlineRules.load(RULES),
              input,
              new Replayer.Settings(Algorithm.FIXED_WINDOW, 1, false));
    }

    assertThat(report.requests()).isEqualTo(400);
    Map<String, long[]> replayed = new TreeMap<>();
    for (ReplayReport.RuleReport rule : report.rules()) {
      replayed.put(rule.rule(), new long[] {rule.allowed(), rule.refused()});
    }
    assertThat(replayed).containsOnlyKeys(answered.keySet());
    answered.forEach(
        (rule, counts) -> assertThat(replayed.get(rule)).as(rule).containsExactly(counts));
    assertThat(answered.get("shop.user")[1]).as("the workload refuses some").isPositive();
    assertThat(answered.get("shop.ip")[1]).as("the workload refuses some").isPositive();
    ReplayReport.RuleReport trial =
        report.rules().stream().filter(r -> r.rule().equals("shop.trial")).findFirst().get();
    assertThat(trial.shadowRefused()).isPositive().isEqualTo(shadowMetric(metrics));
  }

  private static RateLimitRequest randomRequest(Random random) {
    List<RateLimitDescriptor> descriptors = new ArrayList<>();
    for (String key : KEYS) {
      if (random.nextInt(3) > 0) {
        descriptors.add(RlsRequests.descriptor(key, key.charAt(0) + "" + random.nextInt(3)));
      }
    }
    if (descriptors.isEmpty()) {
      descriptors.add(RlsRequests.descriptor("user", "u0"));
    }
    return RlsRequests.request("shop", descriptors.toArray(RateLimitDescriptor[]::new));
  }

  /** Allowed and refused per rule, from the answers the client got. */
  private static void tally(
      Map<String, long[]> counts, RateLimitRequest request, RateLimitResponse response) {
    for (int i = 0; i < request.getDescriptorsCount(); i++) {
      String rule = "shop." + request.getDescriptors(i).getEntries(0).getKey();
      boolean refused = response.getStatuses(i).getCode() == RateLimitResponse.Code.OVER_LIMIT;
      counts.computeIfAbsent(rule, r -> new long[2])[refused ? 1 : 0]++;
    }
  }

  private static long shadowMetric(String metrics) {
    Matcher m =
        Pattern.compile("sluice_rule_shadow_mode_total\\{domain=\"shop\",rule=\"trial\"\\} (\\S+)")
            .matcher(metrics);
    assertThat(m.find()).as(metrics).isTrue();
    return (long) Double.parseDouble(m.group(1));
  }
}
