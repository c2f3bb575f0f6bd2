package dev.sluice.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.testing.FakeClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RepeatedLinesTest {
  private static final Duration INTERVAL = Duration.ofSeconds(10);

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final RepeatedLines lines = new RepeatedLines(logger(), clock, INTERVAL);

  private Logger logger() {
    Logger logger = new LoggerContext().getLogger("repeated");
    appender.start();
    logger.addAppender(appender);
    return logger;
  }

  private List<String> logged() {
    return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Test
  void warn_firstOfAKind_loggedAtOnceWithoutStackTrace() {
    lines.warn("call refused", "stream 3");

    assertThat(logged()).containsExactly("call refused: stream 3");
    assertThat(appender.list.get(0).getThrowableProxy()).isNull();
  }

  @Test
  void warn_repeatsWithinTheInterval_countedNotLogged() {
    for (int i = 0; i < 1_000; i++) {
      lines.warn("call refused", "stream " + i);
    }

    assertThat(logged()).containsExactly("call refused: stream 0");
  }

  @Test
  void flush_afterTheInterval_reportsTheCountInOneLine() {
    for (int i = 0; i < 1_000; i++) {
      lines.warn("call refused", "stream " + i);
    }
    lines.flush();
    clock.advance(INTERVAL);
    lines.flush();
    lines.flush();

    assertThat(logged())
        .containsExactly(
            "call refused: stream 0",
            "call refused: 999 more in the last 10 s, counted, not logged; the last: stream 999");
  }

  @Test
  void warn_afterTheInterval_loggedWithTheCountBeforeIt() {
    lines.warn("call refused", "stream 1");
    lines.warn("call refused", "stream 3");
    clock.advance(INTERVAL.plusSeconds(2));
    lines.warn("call refused", "stream 5");

    assertThat(logged())
        .containsExactly(
            "call refused: stream 1",
            "call refused: stream 5 (after 1 more in the last 12 s, counted, not logged)");
  }

  @Test
  void warn_kindsAreTalliedApart() {
    lines.warn("call refused", "a");
    lines.warn("connection closed", "b");
    lines.warn("call refused", "c");

    assertThat(logged()).containsExactly("call refused: a", "connection closed: b");
  }

  @Test
  void warn_detailWithNewlines_cannotForgeALine() {
    lines.warn("client warning", "te: x\nFAKE ERROR line");

    assertThat(logged()).containsExactly("client warning: te: x\\nFAKE ERROR line");
  }

  @Test
  void warn_moreKindsThanTheCap_laterOnesShareOneTally() {
    for (int i = 0; i < RepeatedLines.MAX_KINDS + 10; i++) {
      lines.warn("kind " + i, "x");
    }

    assertThat(logged()).hasSize(RepeatedLines.MAX_KINDS + 1);
  }

  @Test
  void warn_fromManyThreads_everyOccurrenceCountedOnce() throws Exception {
    int threads = 4;
    int each = 10_000;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    for (int t = 0; t < threads; t++) {
      pool.submit(
          () -> {
            start.await();
            for (int i = 0; i < each; i++) {
              lines.warn("call refused", "x");
            }
            return null;
          });
    }
    start.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    clock.advance(INTERVAL);
    lines.flush();

    assertThat(logged())
        .containsExactly(
            "call refused: x",
            "call refused: "
                + (threads * each - 1)
                + " more in the last 10 s, counted, not logged; the last: x");
  }
}
