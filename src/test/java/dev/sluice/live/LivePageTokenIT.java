package dev.sluice.live;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.AdminClient;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.HeadlessChromium;
import dev.sluice.testing.RunningSluice;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The live page with {@code --admin-token-for-reads}: its data needs the token; the page (a static
 * file with no data in it) asks for it, keeps it in sessionStorage only, sends it as a bearer
 * header, and shows the numbers; a wrong token is refused and asked for again. Driven in real
 * headless Chromium.
 */
class LivePageTokenIT {
  /**
   * Per day: the five hits below run on the real clock and must share one window for exactly three
   * to be over the limit; a minute's boundary could fall between them.
   */
  private static final String RULES =
      """
      domain: web
      descriptors:
        - key: user
          rate_limit: {unit: day, requests_per_unit: 2}
      """;

  @Test
  void livePage_tokenForReads_dataNeedsTheTokenThePageAsksForIt() throws Exception {
    try (RunningSluice sluice =
            RunningSluice.start(
                RULES,
                RunningSluice.withAdminToken(
                    RunningSluice.config(RunningSluice.memoryStore()), true),
                Clock.systemUTC());
        HeadlessChromium chromium = HeadlessChromium.start()) {
      for (int i = 0; i < 5; i++) {
        sluice.rls().shouldRateLimit(request("web", descriptor("user", "u1")));
      }
      AdminClient anonymous = new AdminClient(sluice.httpPort());
      assertThat(anonymous.get("/ui/data").statusCode()).isEqualTo(401);
      assertThat(anonymous.withToken("wrong").get("/ui/data").statusCode()).isEqualTo(401);
      HttpResponse<String> data = anonymous.withToken(RunningSluice.ADMIN_TOKEN).get("/ui/data");
      assertThat(data.statusCode()).isEqualTo(200);
      assertThat(data.body()).contains("\"over_limit_hits_total\":3");
      HttpResponse<String> shell = anonymous.get("/ui");
      assertThat(shell.statusCode()).isEqualTo(200);
      assertThat(shell.body()).doesNotContain("\"now_epoch_second\":").contains("token-form");

      String url = "http://127.0.0.1:" + sluice.httpPort() + "/ui";
      HeadlessChromium.Page page = chromium.open(url);
      awaitTrue(page, "!document.getElementById('token-form').hidden");
      assertThat(page.evaluate("document.querySelectorAll('.rule').length").getAsInt()).isZero();

      submit(page, "not-the-token");
      awaitTrue(page, "document.getElementById('token-problem').textContent === 'wrong token'");
      assertThat(page.evaluate("document.querySelectorAll('.rule').length").getAsInt()).isZero();

      submit(page, RunningSluice.ADMIN_TOKEN);
      awaitTrue(page, "document.querySelector('[data-rule=\"web.user\"] .over-total') !== null");
      assertThat(
              page.evaluate(
                      "document.querySelector('[data-rule=\"web.user\"] .over-total').textContent")
                  .getAsString())
          .isEqualTo("3");
      assertThat(page.evaluate("document.getElementById('token-form').hidden").getAsBoolean())
          .isTrue();
      assertThat(page.evaluate("location.href").getAsString()).isEqualTo(url);
      assertThat(page.evaluate("sessionStorage.getItem('sluice-admin-token')").getAsString())
          .isEqualTo(RunningSluice.ADMIN_TOKEN);
      assertThat(page.evaluate("localStorage.length").getAsInt()).isZero();
    }
  }

  private static void submit(HeadlessChromium.Page page, String token) {
    page.evaluate(
        "document.getElementById('token').value = '"
            + token
            + "'; document.getElementById('token-form').requestSubmit(); true");
  }

  private static void awaitTrue(HeadlessChromium.Page page, String expression)
      throws InterruptedException {
    Eventually.await(
        Duration.ofSeconds(15),
        expression,
        // Null-safe: until the page has loaded, its elements are not there yet and the bare
        // expression throws (which once failed the test on a fast machine).
        () ->
            page.evaluate(
                    "(() => { try { return !!("
                        + expression
                        + "); } catch (e) { return false; } })()")
                .getAsBoolean());
  }
}
