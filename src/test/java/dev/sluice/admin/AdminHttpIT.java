package dev.sluice.admin;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.sluice.config.ServeConfig;
import dev.sluice.testing.AdminClient;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The admin HTTP surface against a real Sluice: health, metrics per rule, rules and reload. */
class AdminHttpIT {
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: hour, requests_per_unit: 10, name: per-user}
        - key: path
          value: /api/*
          descriptors:
            - key: method
              rate_limit: {unit: minute, requests_per_unit: 2}
        - key: trial
          shadow_mode: true
          rate_limit: {unit: hour, requests_per_unit: 1}
        - key: client
          detailed_metric: true
          rate_limit: {unit: hour, requests_per_unit: 5}
      """;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private RunningSluice sluice;

  @AfterEach
  void stop() {
    sluice.close();
  }

  /** Sluice with admin writes enabled by a token; the client sends it. */
  private AdminClient start(boolean readOnly) {
    return startWith(
            RunningSluice.withAdminToken(RunningSluice.config(RunningSluice.memoryStore()), false),
            readOnly)
        .withToken(RunningSluice.ADMIN_TOKEN);
  }

  private AdminClient startWith(ServeConfig config, boolean readOnly) {
    sluice =
        RunningSluice.start(
            RULES,
            config.toBuilder()
                .server(config.server().toBuilder().adminReadOnly(readOnly).build())
                .build(),
            clock);
    return new AdminClient(sluice.httpPort());
  }

  @Test
  void healthcheck_serving_answers200Ok() {
    HttpResponse<String> health = start(false).get("/healthcheck");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).isEqualTo("OK\n");
  }

  @Test
  void metrics_countHitsPerConfiguredRuleNeverPerRawValue() {
    AdminClient admin = start(false);
    for (int i = 0; i < 12; i++) {
      sluice.rls().shouldRateLimit(request("api", descriptor("user", "u" + (i % 2))));
    }
    for (int i = 0; i < 3; i++) {
      sluice.rls().shouldRateLimit(request("api", descriptor("path", "/api/x", "method", "GET")));
      sluice.rls().shouldRateLimit(request("api", descriptor("trial", "t")));
    }
    sluice.rls().shouldRateLimit(request("api", descriptor("client", "acme")));
    sluice.rls().shouldRateLimit(request("nope", descriptor("user", "x")));
    String metrics = admin.get("/metrics").body();
    assertThat(metrics)
        .contains("sluice_rule_hits_total{domain=\"api\",rule=\"user\"} 12.0")
        .contains("sluice_rule_within_limit_total{domain=\"api\",rule=\"user\"} 12.0")
        .contains("sluice_rule_near_limit_total{domain=\"api\",rule=\"user\"} 0.0")
        .contains("sluice_rule_hits_total{domain=\"api\",rule=\"path_/api/*.method\"} 3.0")
        .contains("sluice_rule_over_limit_total{domain=\"api\",rule=\"path_/api/*.method\"} 1.0")
        .contains("sluice_rule_shadow_mode_total{domain=\"api\",rule=\"trial\"} 2.0")
        .contains("sluice_rule_hits_total{domain=\"api\",rule=\"client_acme\"} 1.0")
        .contains("sluice_domain_not_found_total{domain=\"nope\"} 1.0")
        .contains("sluice_request_duration_seconds_count{code=\"OK\"}")
        .contains("sluice_request_duration_seconds_count{code=\"OVER_LIMIT\"} 1")
        .contains("sluice_rules_loaded 4.0")
        .contains("jvm_memory_used_bytes")
        .doesNotContain("u0")
        .doesNotContain("/api/x");
  }

  @Test
  void rules_showsTheLoadedRulesAndSource() {
    JsonObject rules = JsonParser.parseString(start(false).get("/rules").body()).getAsJsonObject();
    assertThat(rules.get("version").getAsString()).hasSize(12);
    JsonObject user = rules.getAsJsonArray("rules").get(0).getAsJsonObject();
    assertThat(user.get("domain").getAsString()).isEqualTo("api");
    assertThat(user.get("path").getAsString()).isEqualTo("user");
    assertThat(user.get("requests_per_unit").getAsLong()).isEqualTo(10);
    assertThat(user.get("unit").getAsString()).isEqualTo("hour");
    assertThat(user.get("algorithm").getAsString()).isEqualTo("fixed_window");
    assertThat(user.get("origin").getAsString()).isEqualTo("rules.yaml:3");
    assertThat(rules.has("last_reload_error")).isFalse();
  }

  @Test
  void reload_brokenFile_keepsServingAndShowsTheErrorUntilFixed() throws IOException {
    AdminClient admin = start(false);
    Files.writeString(
        sluice.rulesDir().resolve("rules.yaml"),
        "domain: api\ndescriptors: [{key: user, rate_limit: {unit: minute, requestsperunit: 1}}]\n");
    HttpResponse<String> rejected = admin.post("/rules/reload", "");
    assertThat(rejected.statusCode()).isEqualTo(422);
    assertThat(rejected.body()).contains("rules.yaml:2:").contains("requestsperunit");
    assertThat(admin.get("/rules").body()).contains("requestsperunit");
    assertThat(
            sluice
                .rls()
                .shouldRateLimit(request("api", descriptor("user", "x")))
                .getStatuses(0)
                .getCurrentLimit()
                .getRequestsPerUnit())
        .isEqualTo(10);
    assertThat(admin.get("/metrics").body())
        .contains("sluice_rules_reloads_total{result=\"failure\"}");

    Files.writeString(
        sluice.rulesDir().resolve("rules.yaml"),
        "domain: api\ndescriptors: [{key: user, rate_limit: {unit: minute, requests_per_unit: 1}}]\n");
    HttpResponse<String> fixed = admin.post("/rules/reload", "");
    assertThat(fixed.statusCode()).isEqualTo(200);
    assertThat(JsonParser.parseString(fixed.body()).getAsJsonObject().get("outcome").getAsString())
        .isEqualTo("RELOADED");
    assertThat(admin.get("/rules").body()).doesNotContain("last_reload_error");
    assertThat(
            sluice
                .rls()
                .shouldRateLimit(request("api", descriptor("user", "x")))
                .getStatuses(0)
                .getCurrentLimit()
                .getRequestsPerUnit())
        .isEqualTo(1);
  }

  @Test
  void json_theReferenceHttpForm_answers200Then429And400ForBadInput() {
    AdminClient admin = start(false);
    String body =
        "{\"domain\":\"api\",\"descriptors\":[{\"entries\":[{\"key\":\"path\",\"value\":\"/api/j\"},"
            + "{\"key\":\"method\",\"value\":\"GET\"}]}]}";
    HttpResponse<String> first = admin.post("/json", body);
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.body()).contains("\"overallCode\": \"OK\"").contains("\"limitRemaining\": 1");
    admin.post("/json", body);
    HttpResponse<String> third = admin.post("/json", body);
    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(third.body()).contains("OVER_LIMIT");
    assertThat(admin.post("/json", "{\"domain\":").statusCode()).isEqualTo(400);
    assertThat(admin.post("/json", "{\"domain\":\"api\",\"bogus\":1}").statusCode()).isEqualTo(400);
    HttpResponse<String> empty = admin.post("/json", "{\"domain\":\"api\"}");
    assertThat(empty.statusCode()).isEqualTo(400);
    assertThat(empty.body()).contains("descriptor list must not be empty");
  }

  @Test
  void counters_inspectDoesNotConsumeAndDeleteResets() {
    AdminClient admin = start(false);
    for (int i = 0; i < 3; i++) {
      sluice.rls().shouldRateLimit(request("api", descriptor("user", "alice")));
    }
    for (int i = 0; i < 2; i++) {
      JsonObject counter =
          JsonParser.parseString(admin.get("/counters?domain=api&user=alice").body())
              .getAsJsonObject();
      assertThat(counter.get("matched").getAsBoolean()).isTrue();
      assertThat(counter.get("exists").getAsBoolean()).isTrue();
      assertThat(counter.get("count").getAsLong()).isEqualTo(3);
      assertThat(counter.get("remaining").getAsLong()).isEqualTo(7);
      assertThat(counter.get("key").getAsString()).startsWith("fw|3600|api|user=alice");
      assertThat(counter.getAsJsonObject("rule").get("name").getAsString()).isEqualTo("per-user");
    }
    HttpResponse<String> reset = admin.delete("/counters?domain=api&user=alice");
    assertThat(reset.statusCode()).isEqualTo(200);
    assertThat(reset.body()).contains("\"removed\": true");
    assertThat(
            sluice
                .rls()
                .shouldRateLimit(request("api", descriptor("user", "alice")))
                .getStatuses(0)
                .getLimitRemaining())
        .isEqualTo(9);
    assertThat(admin.get("/counters?domain=api&nobody=x").statusCode()).isEqualTo(404);
    assertThat(admin.get("/counters?domain=api").statusCode()).isEqualTo(400);
  }

  @Test
  void writes_withoutOrWithAWrongToken_areRefused_withTheRightOneWork() {
    AdminClient admin = start(false);
    AdminClient anonymous = new AdminClient(sluice.httpPort());
    AdminClient wrong = anonymous.withToken("guess");
    sluice.rls().shouldRateLimit(request("api", descriptor("user", "alice")));
    HttpResponse<String> noToken = anonymous.delete("/counters?domain=api&user=alice");
    assertThat(noToken.statusCode()).isEqualTo(401);
    assertThat(noToken.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
    assertThat(wrong.delete("/counters?domain=api&user=alice").statusCode()).isEqualTo(401);
    assertThat(anonymous.post("/rules/reload", "").statusCode()).isEqualTo(401);
    assertThat(wrong.post("/rules/reload", "").statusCode()).isEqualTo(401);
    assertThat(anonymous.get("/counters?domain=api&user=alice").body())
        .as("reads are open and nothing was reset")
        .contains("\"count\": \"1\"");
    HttpResponse<String> right = admin.delete("/counters?domain=api&user=alice");
    assertThat(right.statusCode()).isEqualTo(200);
    assertThat(right.body()).contains("\"removed\": true");
  }

  @Test
  void writes_withoutATokenFile_areRefusedSayingHowToEnableThem() {
    AdminClient admin =
        startWith(RunningSluice.config(RunningSluice.memoryStore()), false).withToken("any");
    HttpResponse<String> refused = admin.delete("/counters?domain=api&user=alice");
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.body()).contains("--admin-token-file").contains("SLUICE_ADMIN_TOKEN_FILE");
    assertThat(admin.post("/rules/reload", "").statusCode()).isEqualTo(403);
    assertThat(admin.get("/rules").statusCode()).isEqualTo(200);
  }

  @Test
  void reads_withTokenForReads_needTheToken() {
    AdminClient anonymous =
        startWith(
            RunningSluice.withAdminToken(RunningSluice.config(RunningSluice.memoryStore()), true),
            false);
    for (String path :
        new String[] {"/rules", "/counters?domain=api&user=a", "/metrics", "/healthcheck"}) {
      assertThat(anonymous.get(path).statusCode()).as(path).isEqualTo(401);
      assertThat(anonymous.withToken(RunningSluice.ADMIN_TOKEN).get(path).statusCode())
          .as(path)
          .isEqualTo(200);
    }
    assertThat(anonymous.post("/json", "{}").statusCode()).isEqualTo(401);
  }

  @Test
  void json_isNotHtmlEscaped() {
    AdminClient admin = start(false);
    sluice.rls().shouldRateLimit(request("api", descriptor("user", "o'brien")));
    String counter = admin.get("/counters?domain=api&user=o%27brien").body();
    assertThat(counter)
        .contains("\"key\": \"fw|3600|api|user=o'brien\"")
        .doesNotContain("\\u003d")
        .doesNotContain("\\u0027");
    String json =
        admin
            .post(
                "/json",
                "{\"domain\":\"api\",\"descriptors\":[{\"entries\":[{\"key\":\"user\",\"value\":\"a\"}]}]}")
            .body();
    assertThat(json).contains("\"name\": \"per-user\"");
  }

  @Test
  void json_bodyOverOneMebibyte_is413AndTheServerKeepsAnswering() {
    AdminClient admin = start(false);
    String huge = "{\"domain\":\"" + "x".repeat(AdminHttpServer.MAX_BODY_BYTES) + "\"}";
    assertThat(admin.post("/json", huge).statusCode()).isEqualTo(413);
    assertThat(admin.get("/healthcheck").statusCode()).isEqualTo(200);
    String justUnder = "{\"domain\":\"" + "x".repeat(AdminHttpServer.MAX_BODY_BYTES - 100) + "\"}";
    assertThat(admin.post("/json", justUnder).statusCode())
        .as("under the bound it is read and judged")
        .isEqualTo(400);
  }

  @Test
  void reset_queryWithNewlines_isNeverLoggedRaw() {
    AdminClient admin = start(false);
    Logger audit = (Logger) LoggerFactory.getLogger("dev.sluice.admin.audit");
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    audit.addAppender(lines);
    try {
      admin.delete("/counters?domain=api&user=x%0A2026-12-01%20INFO%20forged%0D%0Aline");
      admin.withToken("wrong").delete("/counters?domain=api%0Aforged&user=y");
    } finally {
      audit.detachAppender(lines);
    }
    assertThat(lines.list).hasSize(2);
    for (ILoggingEvent line : lines.list) {
      assertThat(line.getFormattedMessage()).doesNotContain("\n").doesNotContain("\r");
    }
    assertThat(lines.list.get(0).getFormattedMessage())
        .contains("user=x\\n2026-12-01 INFO forged\\r\\nline")
        .contains("127.0.0.1");
    assertThat(lines.list.get(1).getFormattedMessage()).contains("refused: wrong admin token");
  }

  @Test
  void reload_readOnlyAdmin_isForbidden() {
    AdminClient admin = start(true);
    assertThat(admin.delete("/counters?domain=api&user=alice").statusCode()).isEqualTo(403);
    assertThat(admin.get("/counters?domain=api&user=alice").statusCode()).isEqualTo(200);
    assertThat(admin.post("/rules/reload", "").statusCode()).isEqualTo(403);
    assertThat(admin.get("/rules/reload").statusCode()).isEqualTo(405);
  }
}
