package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.StoreConfig;
import dev.sluice.testing.AdminClient;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.RlsRequests;
import dev.sluice.testing.RunningSluice;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * A Redis password never leaks: with an ACL user whose password is wrong, Sluice serves by its
 * failure mode, and neither the logs, the health check, /json, /rules, /metrics nor the gRPC error
 * show the password.
 */
class RedisPasswordLeakIT {
  private static final String PASSWORD = "hunter2-wrong-password";
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: 3}
      """;

  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  @Test
  void wrongPassword_appearsNowhere() {
    redis.addUser("leak-user", "the-right-one");
    RedisEndpoint endpoint =
        RedisEndpoint.parse(
            "redis://leak-user:" + PASSWORD + "@" + redis.host() + ":" + redis.port());
    StoreConfig store =
        StoreConfig.redis(
            RedisConfig.builder(endpoint)
                .timeout(Duration.ofSeconds(1))
                .connections(2)
                .keyPrefix("")
                .build());
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    root.addAppender(appender);
    List<String> seen = new ArrayList<>();
    try (RunningSluice sluice = RunningSluice.start(RULES, store, Clock.systemUTC())) {
      AdminClient admin = new AdminClient(sluice.httpPort());
      String health = admin.get("/healthcheck").body();
      assertThat(health).contains("WRONGPASS");
      seen.add(health);
      seen.add(admin.get("/rules").body());
      seen.add(admin.get("/metrics").body());
      seen.add(
          admin
              .post(
                  "/json",
                  "{\"domain\":\"api\",\"descriptors\":[{\"entries\":[{\"key\":\"user\",\"value\":\"a\"}]}]}")
              .body());
      Throwable failure =
          catchThrowable(
              () ->
                  sluice
                      .rls()
                      .shouldRateLimit(
                          RlsRequests.request("api", RlsRequests.descriptor("user", "b"))));
      seen.add(String.valueOf(failure));
    } finally {
      root.detachAppender(appender);
    }
    appender.list.forEach(
        event -> {
          seen.add(event.getFormattedMessage());
          if (event.getThrowableProxy() != null) {
            seen.add(event.getThrowableProxy().getMessage());
          }
        });
    assertThat(seen).isNotEmpty().allSatisfy(text -> assertThat(text).doesNotContain(PASSWORD));
  }
}
