package dev.sluice.explain;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.sluice.admin.v1.Entry;
import dev.sluice.admin.v1.ExplainDescriptor;
import dev.sluice.admin.v1.ExplainRequest;
import dev.sluice.admin.v1.ExplainResponse;
import dev.sluice.admin.v1.SluiceAdminGrpc;
import dev.sluice.testing.AdminClient;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.RunningSluice;
import io.grpc.CallCredentials;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * {@code POST /explain} and the admin gRPC Explain through the real ports of a Sluice on a real
 * Redis, with {@code --admin-token-for-reads}: both answer the counts requests left, both need the
 * token, and neither changes a key.
 */
class ExplainAdminIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  /**
   * Per day: the three requests at start-up and the explanations run on the real clock, and the
   * exact counts asserted need them in one window (and a bucket that does not refill meanwhile).
   */
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: day, requests_per_unit: 5, name: per-user}
        - key: bucket
          rate_limit: {unit: day, requests_per_unit: 2, algorithm: token_bucket, burst: 10}
      """;

  private static final String BODY =
      """
      {"domain": "api", "descriptors": [
        {"entries": [{"key": "user", "value": "dora"}]},
        {"entries": [{"key": "bucket", "value": "b"}]}]}
      """;

  private RunningSluice sluice;

  @BeforeEach
  void start() {
    try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
      jedis.flushAll();
    }
    sluice =
        RunningSluice.start(
            RULES,
            RunningSluice.withAdminToken(
                RunningSluice.config(RunningSluice.redisStore(redis.uri())), true),
            Clock.systemUTC());
    for (int i = 0; i < 3; i++) {
      sluice
          .rls()
          .shouldRateLimit(request("api", descriptor("user", "dora"), descriptor("bucket", "b")));
    }
  }

  @AfterEach
  void stop() {
    sluice.close();
  }

  @Test
  void postExplain_withToken_answersTheCountsAndChangesNoKey() {
    Map<String, String> before = dump();
    AdminClient admin = new AdminClient(sluice.httpPort()).withToken(RunningSluice.ADMIN_TOKEN);

    HttpResponse<String> response = null;
    for (int i = 0; i < 5; i++) {
      response = admin.post("/explain", BODY);
    }

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonObject json = JsonParser.parseString(response.body()).getAsJsonObject();
    assertThat(json.get("domain_known").getAsBoolean()).isTrue();
    JsonObject user = json.getAsJsonArray("descriptors").get(0).getAsJsonObject();
    assertThat(user.get("effect").getAsString()).isEqualTo("COUNTED");
    JsonObject counter = user.getAsJsonObject("counter");
    assertThat(counter.get("count").getAsString()).isEqualTo("3");
    assertThat(counter.get("remaining").getAsString()).isEqualTo("2");
    assertThat(before.get(counter.get("store_key").getAsString())).isEqualTo("3");
    JsonObject bucket = json.getAsJsonArray("descriptors").get(1).getAsJsonObject();
    assertThat(bucket.getAsJsonObject("counter").get("exists").getAsBoolean()).isTrue();
    assertThat(bucket.getAsJsonObject("counter").get("remaining").getAsString()).isEqualTo("7");
    assertThat(dump()).isEqualTo(before);
  }

  @Test
  void postExplain_withoutOrWithWrongToken_is401AndBadJsonIs400() {
    AdminClient anonymous = new AdminClient(sluice.httpPort());
    assertThat(anonymous.post("/explain", BODY).statusCode()).isEqualTo(401);
    assertThat(anonymous.post("/explain", "{not json").statusCode()).isEqualTo(401);
    assertThat(anonymous.withToken("wrong").post("/explain", BODY).statusCode()).isEqualTo(401);

    AdminClient admin = anonymous.withToken(RunningSluice.ADMIN_TOKEN);
    HttpResponse<String> bad = admin.post("/explain", "{not json");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("invalid RateLimitRequest JSON");
    HttpResponse<String> empty = admin.post("/explain", "{\"domain\": \"api\"}");
    assertThat(empty.statusCode()).isEqualTo(400);
    assertThat(empty.body()).contains("descriptor list must not be empty");
    assertThat(admin.get("/explain").statusCode()).isEqualTo(405);
  }

  @Test
  void grpcExplain_withToken_answersAsHttpDoesAndChangesNoKey() {
    Map<String, String> before = dump();
    ExplainRequest request =
        ExplainRequest.newBuilder()
            .setDomain("api")
            .addDescriptors(
                ExplainDescriptor.newBuilder()
                    .addEntries(Entry.newBuilder().setKey("user").setValue("dora")))
            .build();
    SluiceAdminGrpc.SluiceAdminBlockingStub stub =
        SluiceAdminGrpc.newBlockingStub(sluice.adminChannel());

    ExplainResponse response =
        stub.withCallCredentials(bearer(RunningSluice.ADMIN_TOKEN)).explain(request);

    assertThat(response.getDescriptors(0).getCounter().getCount()).isEqualTo(3);
    assertThat(response.getDescriptors(0).getCounter().getRemaining()).isEqualTo(2);
    assertThat(response.getDescriptors(0).getRule().getName()).isEqualTo("per-user");
    assertThat(dump()).isEqualTo(before);
    StatusRuntimeException refused = null;
    try {
      stub.explain(request);
    } catch (StatusRuntimeException e) {
      refused = e;
    }
    assertThat(refused).isNotNull();
    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(dump()).isEqualTo(before);
  }

  private static CallCredentials bearer(String token) {
    return new CallCredentials() {
      @Override
      public void applyRequestMetadata(
          RequestInfo info, Executor executor, MetadataApplier applier) {
        Metadata headers = new Metadata();
        headers.put(
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
        applier.apply(headers);
      }
    };
  }

  /**
   * Every counter key of the domain with its value. Only counters: a running Sluice also keeps keys
   * of its own that change with time (the instance registry of the consistency modes).
   */
  private static Map<String, String> dump() {
    Map<String, String> all = new TreeMap<>();
    try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
      for (String key : jedis.keys("*|api|*")) {
        String type = jedis.type(key);
        all.put(
            key,
            switch (type) {
              case "string" -> jedis.get(key);
              case "hash" -> new TreeMap<>(jedis.hgetAll(key)).toString();
              // Any other structure a store keeps, compared by its serialised value.
              default -> type + ":" + java.util.HexFormat.of().formatHex(jedis.dump(key));
            });
      }
    }
    return all;
  }
}
