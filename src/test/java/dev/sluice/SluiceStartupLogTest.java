package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.config.RedisConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.StoreConfig;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class SluiceStartupLogTest {
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: 3}
      """;

  @Test
  void start_logsTheWholeSettingsTree_withTheRedisPasswordMasked() {
    // The memory store, so nothing connects; the Redis settings are still in the tree.
    RedisConfig redis = RedisConfig.of("redis://app:hunter2@cache.internal:6380/2");
    ServeConfig config =
        RunningSluice.config(StoreConfig.memory().toBuilder().redis(redis).build());
    Logger logger = (Logger) LoggerFactory.getLogger(Sluice.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    List<String> lines;
    try (RunningSluice sluice =
        RunningSluice.start(RULES, config, FakeClock.atEpochSecond(1_700_000_000L))) {
      lines = appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    } finally {
      logger.detachAppender(appender);
    }
    assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("starting with ServeConfig["));
    assertThat(lines)
        .filteredOn(line -> line.startsWith("starting with"))
        .singleElement()
        .satisfies(
            line ->
                assertThat(line)
                    .contains("redis://app:***@cache.internal:6380/2")
                    .doesNotContain("hunter2"));
    assertThat(String.join("\n", lines)).doesNotContain("hunter2");
  }
}
