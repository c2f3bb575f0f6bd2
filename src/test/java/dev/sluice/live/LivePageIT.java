package dev.sluice.live;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.sluice.rlqs.SimulatedEnvoy;
import dev.sluice.testing.AdminClient;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.HeadlessChromium;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The live page as a person sees it: a real Sluice under a bounded load, the page opened in real
 * headless Chromium, and what the page shows compared with the service's own Prometheus counters;
 * then a simulated Envoy's quota report, which the RLQS section shows as a subscribed bucket.
 * Leaves a screenshot at {@code target/live-page.png} for review.
 */
class LivePageIT {
  private static final String RULES =
      """
      domain: web
      descriptors:
        - key: user
          rate_limit: {unit: minute, requests_per_unit: 5}
        - key: client
          detailed_metric: true
          rate_limit: {unit: minute, requests_per_unit: 50}
      """;

  private static final Path SCREENSHOT = Path.of("target", "live-page.png");

  @Test
  void livePage_underLoad_showsTheServiceCountersAndTheTopRefusedKeys() throws Exception {
    try (RunningSluice sluice = RunningSluice.withRules(RULES, Clock.systemUTC());
        HeadlessChromium chromium = HeadlessChromium.start()) {
      long refused = sendLoad(sluice, Duration.ofSeconds(4), 100);
      assertThat(refused).as("the load must refuse something").isPositive();

      AdminClient admin = new AdminClient(sluice.httpPort());
      Map<String, Long> metrics = ruleCounters(admin.get("/metrics").body());
      HeadlessChromium.Page page = chromium.open("http://127.0.0.1:" + sluice.httpPort() + "/ui");

      // The page polls every second; wait until it shows the counters the load left behind.
      AtomicReference<Map<String, Long>> shown = new AtomicReference<>(Map.of());
      Eventually.await(
          Duration.ofSeconds(20),
          "the page to show " + metrics + " (shows " + shown + ")",
          () -> {
            shown.set(shownCounters(page));
            return shown.get().equals(metrics);
          });

      assertThat(page.evaluate("document.getElementById('store-state').textContent").getAsString())
          .isEqualTo("up");
      assertThat(page.evaluate("document.getElementById('store-kind').textContent").getAsString())
          .isEqualTo("memory");
      JsonArray keys = topKeys(page);
      assertThat(keys).isNotEmpty();
      // The detailed_metric rule shows its value; the other rule's values are hashed.
      assertThat(keys.toString()).contains("client=acme").doesNotContain("user=u");
      assertThat(keys.toString()).containsPattern("user=#[0-9a-f]{12}");
      assertThat(
              page.evaluate(
                      "document.querySelector('[data-rule=\"web.user\"] svg polyline')"
                          + ".getAttribute('points').split(' ').length")
                  .getAsInt())
          .isEqualTo(LiveStats.WINDOW_SECONDS);

      // An Envoy's quota filter reports one interval on the RLQS stream: its bucket shows up.
      try (SimulatedEnvoy envoy =
          new SimulatedEnvoy(
              sluice.channel(), "web", Map.of("user", "quota"), 10, Duration.ofSeconds(1))) {
        envoy.step();
        Eventually.await(
            Duration.ofSeconds(20),
            "the RLQS section to show the subscribed bucket",
            () ->
                page.evaluate(
                        "(document.querySelector('#rlqs-rules [data-rule=\"web.user\"] .buckets')"
                            + " || {}).textContent === '1'")
                    .getAsBoolean());
        assertThat(page.evaluate("document.getElementById('rlqs-state').textContent").getAsString())
            .isEqualTo("1 streams, 1 buckets subscribed");
        page.screenshot(SCREENSHOT);
      }
    }
  }

  /** Sends about {@code perSecond} requests a second for {@code duration}; returns refusals. */
  private static long sendLoad(RunningSluice sluice, Duration duration, int perSecond)
      throws InterruptedException {
    long refused = 0;
    long end = System.nanoTime() + duration.toNanos();
    long pause = 1_000_000_000L / perSecond;
    for (int i = 0; System.nanoTime() < end; i++) {
      long started = System.nanoTime();
      RateLimitResponse answer =
          sluice
              .rls()
              .shouldRateLimit(
                  request("web", descriptor("user", "u" + (i % 5)), descriptor("client", "acme")));
      refused += answer.getOverallCode() == RateLimitResponse.Code.OVER_LIMIT ? 1 : 0;
      long left = pause - (System.nanoTime() - started);
      if (left > 0) {
        Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
      }
    }
    return refused;
  }

  private static final Pattern COUNTER =
      Pattern.compile(
          "^sluice_rule_(hits|over_limit)_total\\{domain=\"web\",rule=\"([^\"]+)\"} ([0-9.eE+]+)$",
          Pattern.MULTILINE);

  /** {@code user.hits -> 600}, from the Prometheus text. */
  private static Map<String, Long> ruleCounters(String metrics) {
    Map<String, Long> counters = new HashMap<>();
    Matcher m = COUNTER.matcher(metrics);
    while (m.find()) {
      // The detailed_metric rule is labelled by its value (client_acme): one value here.
      String rule = m.group(2).startsWith("client_") ? "client" : m.group(2);
      counters.put(rule + "." + m.group(1), (long) Double.parseDouble(m.group(3)));
    }
    assertThat(counters).containsKeys("user.hits", "user.over_limit", "client.hits");
    return counters;
  }

  private static Map<String, Long> shownCounters(HeadlessChromium.Page page) {
    JsonElement cards =
        page.evaluate(
            "JSON.stringify([...document.querySelectorAll('.rule')].map(c => ({"
                + " rule: c.dataset.rule,"
                + " hits: c.querySelector('.hits-total').textContent,"
                + " over: c.querySelector('.over-total').textContent })))");
    Map<String, Long> shown = new HashMap<>();
    for (JsonElement card : JsonParser.parseString(cards.getAsString()).getAsJsonArray()) {
      JsonObject c = card.getAsJsonObject();
      String rule = c.get("rule").getAsString().substring("web.".length());
      shown.put(rule + ".hits", number(c.get("hits").getAsString()));
      shown.put(rule + ".over_limit", number(c.get("over").getAsString()));
    }
    return shown;
  }

  private static JsonArray topKeys(HeadlessChromium.Page page) {
    String rows =
        page.evaluate(
                "JSON.stringify([...document.querySelectorAll('#top-keys tr')]"
                    + ".map(r => [...r.children].map(td => td.textContent)))")
            .getAsString();
    JsonArray keys = new JsonArray();
    for (JsonElement row : JsonParser.parseString(rows).getAsJsonArray()) {
      if (row.getAsJsonArray().size() == 5) {
        keys.add(row.getAsJsonArray().get(2));
      }
    }
    return keys;
  }

  private static long number(String shown) {
    return Long.parseLong(shown.replace(",", ""));
  }
}
