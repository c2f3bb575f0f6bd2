package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ServeConfig;
import dev.sluice.testing.AdminClient;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import java.net.http.HttpResponse;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reference's debug port ({@code --debug-port}, from {@code DEBUG_PORT}) on a real Sluice: the
 * admin port's {@code /rlconfig} text and its read guard, the list of endpoints at {@code /}, and
 * nothing else; off unless asked for.
 */
class DebugPortIT {
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: 10}
      """;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private RunningSluice sluice;

  @AfterEach
  void stop() {
    sluice.close();
  }

  private AdminClient start(ServeConfig config) {
    sluice =
        RunningSluice.start(
            RULES,
            config.toBuilder()
                .server(
                    config.server().toBuilder()
                        .access(
                            config.server().access().toBuilder()
                                .debugPort(OptionalInt.of(0))
                                .build())
                        .build())
                .build(),
            clock);
    return new AdminClient(sluice.sluice().debugPort().orElseThrow());
  }

  @Test
  void rlconfig_onTheDebugPort_isTheAdminPortsText() {
    AdminClient debug = start(RunningSluice.config(RunningSluice.memoryStore()));
    HttpResponse<String> rlconfig = debug.get("/rlconfig");

    assertThat(rlconfig.statusCode()).isEqualTo(200);
    assertThat(rlconfig.body())
        .isEqualTo(
            "api.user: unit=HOUR requests_per_unit=10, shadow_mode: false, quota_mode: false\n")
        .isEqualTo(new AdminClient(sluice.httpPort()).get("/rlconfig").body());
    assertThat(sluice.sluice().debugPort().getAsInt()).isNotEqualTo(sluice.httpPort());
  }

  @Test
  void root_listsTheEndpoints_andOtherPathsAreNotServed() {
    AdminClient debug = start(RunningSluice.config(RunningSluice.memoryStore()));

    assertThat(debug.get("/").body()).startsWith("/rlconfig: ");
    assertThat(debug.get("/healthcheck").statusCode()).as("health stays on PORT").isEqualTo(404);
    assertThat(debug.get("/metrics").statusCode()).isEqualTo(404);
  }

  @Test
  void rlconfig_withTokenForReads_needsTheTokenThereToo() {
    ServeConfig guarded =
        RunningSluice.withAdminToken(RunningSluice.config(RunningSluice.memoryStore()), true);
    AdminClient debug = start(guarded);

    assertThat(debug.get("/rlconfig").statusCode()).isEqualTo(401);
    assertThat(debug.withToken(RunningSluice.ADMIN_TOKEN).get("/rlconfig").statusCode())
        .isEqualTo(200);
  }

  @Test
  void debugPort_notAskedFor_isNotOpened() {
    sluice = RunningSluice.withRules(RULES, clock);

    assertThat(sluice.sluice().debugPort()).isEmpty();
  }
}
