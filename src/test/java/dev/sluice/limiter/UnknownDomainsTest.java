package dev.sluice.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.metrics.SluiceMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Caller-chosen domains (issue 11 items 4 and 7): bounded memory, no forged log lines. */
class UnknownDomainsTest {
  private final UnknownDomains domains =
      new UnknownDomains(new SluiceMetrics(new PrometheusRegistry()));
  private final Logger logger = (Logger) LoggerFactory.getLogger(UnknownDomains.class);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  @BeforeEach
  void capture() {
    appender.start();
    logger.addAppender(appender);
  }

  @AfterEach
  void release() {
    logger.detachAppender(appender);
  }

  private List<String> lines() {
    return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Test
  void seen_domainWithNewlines_isLoggedOnOneLineWithEscapes() {
    domains.seen("api\n2026-12-01 INFO admin: counters reset by root\r", 1);

    assertThat(lines())
        .singleElement()
        .satisfies(
            line ->
                assertThat(line)
                    .doesNotContain("\n")
                    .doesNotContain("\r")
                    .contains("api\\n2026-12-01 INFO admin"));
  }

  @Test
  void seen_hugeDomain_isLoggedCut() {
    domains.seen("x".repeat(4 * 1024 * 1024), 1);

    assertThat(lines()).singleElement().satisfies(line -> assertThat(line).hasSizeLessThan(1024));
  }

  @Test
  void seen_domainsAlikeInTheirFirstCharacters_areRememberedAsOne() {
    String prefix = "d".repeat(UnknownDomains.MAX_CHARS);
    for (int i = 0; i < 50; i++) {
      domains.seen(prefix + i, 1);
    }

    assertThat(lines()).hasSize(1);
  }

  @Test
  void seen_manyDistinctDomains_remembersABoundedNumber() {
    for (int i = 0; i < UnknownDomains.MAX_REMEMBERED + 500; i++) {
      domains.seen("domain-" + i, 1);
    }

    assertThat(lines()).hasSize(UnknownDomains.MAX_REMEMBERED);
  }
}
