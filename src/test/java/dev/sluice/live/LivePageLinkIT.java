package dev.sluice.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Eventually;
import dev.sluice.testing.HeadlessChromium;
import dev.sluice.testing.SluiceJarProcess;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The live page opened through a link with a query or a fragment ({@code /ui?x=1}, {@code /ui#top})
 * still finds its data at {@code /ui/data}: in real headless Chromium, against the packaged jar.
 */
class LivePageLinkIT {
  private static final String RULES =
      """
      domain: web
      descriptors:
        - key: user
          rate_limit: {unit: minute, requests_per_unit: 5}
      """;

  @Test
  void livePage_linkWithQueryOrFragment_updates() throws Exception {
    try (SluiceJarProcess sluice = SluiceJarProcess.start("256m", RULES);
        HeadlessChromium chromium = HeadlessChromium.start()) {
      for (String link : new String[] {"/ui?x=1", "/ui#top", "/ui/?refresh=1#top"}) {
        HeadlessChromium.Page page = chromium.open("http://127.0.0.1:" + sluice.httpPort() + link);
        Eventually.await(
            Duration.ofSeconds(20), "the page at " + link + " to show data", () -> polls(page) > 0);
        assertThat(text(page, "store-kind")).as(link).isEqualTo("memory");
      }
    }
  }

  /** How many answers of {@code /ui/data} the page has rendered. */
  private static int polls(HeadlessChromium.Page page) {
    // Null-safe: the first evaluations may run before the page has loaded.
    return page.evaluate("Number(document.getElementById('updated')?.dataset.polls || 0)")
        .getAsInt();
  }

  private static String text(HeadlessChromium.Page page, String id) {
    return page.evaluate("document.getElementById('" + id + "').textContent").getAsString();
  }
}
