package dev.sluice.admin;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.admin.v1.CounterRequest;
import dev.sluice.admin.v1.Entry;
import dev.sluice.admin.v1.GetRulesRequest;
import dev.sluice.admin.v1.GetRulesResponse;
import dev.sluice.admin.v1.InspectCounterResponse;
import dev.sluice.admin.v1.ReloadRequest;
import dev.sluice.admin.v1.ReloadResponse;
import dev.sluice.admin.v1.ResetCounterResponse;
import dev.sluice.admin.v1.SluiceAdminGrpc;
import dev.sluice.config.AccessConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import io.grpc.CallCredentials;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Files;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice.admin.v1.SluiceAdmin} on its own port (never the RLS port), through a real client.
 */
class AdminGrpcIT {
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: minute, requests_per_unit: 4, name: per-user}
        - key: key
          rate_limit: {unit: second, requests_per_unit: 1, algorithm: token_bucket, burst: 3}
      """;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private RunningSluice sluice;

  @AfterEach
  void stop() {
    sluice.close();
  }

  private SluiceAdminGrpc.SluiceAdminBlockingStub start(boolean readOnly) {
    return startWith(
        RunningSluice.withAdminToken(RunningSluice.config(RunningSluice.memoryStore()), false),
        readOnly);
  }

  private SluiceAdminGrpc.SluiceAdminBlockingStub startWith(ServeConfig config, boolean readOnly) {
    sluice =
        RunningSluice.start(
            RULES,
            config.toBuilder()
                .server(config.server().toBuilder().adminReadOnly(readOnly).build())
                .build(),
            clock);
    return SluiceAdminGrpc.newBlockingStub(sluice.adminChannel())
        .withCallCredentials(bearer(RunningSluice.ADMIN_TOKEN));
  }

  private static CallCredentials bearer(String token) {
    return new CallCredentials() {
      @Override
      public void applyRequestMetadata(
          RequestInfo info, java.util.concurrent.Executor executor, MetadataApplier applier) {
        Metadata headers = new Metadata();
        headers.put(
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
        applier.apply(headers);
      }
    };
  }

  private static void assertCode(Runnable call, Status.Code code) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class, e -> assertThat(e.getStatus().getCode()).isEqualTo(code));
  }

  private static CounterRequest counter(String key, String value) {
    return CounterRequest.newBuilder()
        .setDomain("api")
        .addEntries(Entry.newBuilder().setKey(key).setValue(value))
        .build();
  }

  @Test
  void getRules_listsRulesWithLimitsAndOrigin() {
    GetRulesResponse rules = start(false).getRules(GetRulesRequest.getDefaultInstance());
    assertThat(rules.getVersion()).hasSize(12);
    assertThat(rules.getRulesList()).hasSize(2);
    assertThat(rules.getRules(1).getAlgorithm()).isEqualTo("token_bucket");
    assertThat(rules.getRules(1).getBurst()).isEqualTo(3);
    assertThat(rules.getRules(0).getOrigin()).isEqualTo("rules.yaml:3");
    assertThat(rules.hasLastReloadError()).isFalse();
  }

  @Test
  void reload_invalidThenValid_reportsProblemsThenTheNewVersion() throws IOException {
    SluiceAdminGrpc.SluiceAdminBlockingStub admin = start(false);
    String before = admin.getRules(GetRulesRequest.getDefaultInstance()).getVersion();
    Files.writeString(
        sluice.rulesDir().resolve("rules.yaml"),
        "domain: api\ndescriptors: [{key: user, ratelimit: {}}]\n");
    ReloadResponse rejected = admin.reload(ReloadRequest.getDefaultInstance());
    assertThat(rejected.getOutcome()).isEqualTo(ReloadResponse.Outcome.REJECTED);
    assertThat(rejected.getVersion()).isEqualTo(before);
    assertThat(rejected.getProblemsList())
        .singleElement()
        .asString()
        .contains("rules.yaml:2:")
        .contains("ratelimit");
    assertThat(
            admin
                .getRules(GetRulesRequest.getDefaultInstance())
                .getLastReloadError()
                .getProblemsCount())
        .isEqualTo(1);

    Files.writeString(
        sluice.rulesDir().resolve("rules.yaml"),
        "domain: api\ndescriptors: [{key: user, rate_limit: {unit: minute, requests_per_unit: 1}}]\n");
    ReloadResponse reloaded = admin.reload(ReloadRequest.getDefaultInstance());
    assertThat(reloaded.getOutcome()).isEqualTo(ReloadResponse.Outcome.RELOADED);
    assertThat(reloaded.getVersion()).isNotEqualTo(before);
  }

  @Test
  void inspectAndReset_matchTheCounterRequestsUse() {
    SluiceAdminGrpc.SluiceAdminBlockingStub admin = start(false);
    sluice.rls().shouldRateLimit(request("api", descriptor("key", "k1")));
    sluice.rls().shouldRateLimit(request("api", descriptor("key", "k1")));
    InspectCounterResponse bucket = admin.inspectCounter(counter("key", "k1"));
    assertThat(bucket.getMatched()).isTrue();
    assertThat(bucket.getExists()).isTrue();
    assertThat(bucket.getRemaining()).isEqualTo(1);
    assertThat(bucket.getRule().getPath()).isEqualTo("key");
    assertThat(admin.inspectCounter(counter("key", "k1")).getRemaining())
        .as("not consumed")
        .isEqualTo(1);

    ResetCounterResponse reset = admin.resetCounter(counter("key", "k1"));
    assertThat(reset.getRemoved()).isTrue();
    assertThat(
            sluice
                .rls()
                .shouldRateLimit(request("api", descriptor("key", "k1")))
                .getStatuses(0)
                .getLimitRemaining())
        .isEqualTo(2);
    assertThat(admin.inspectCounter(counter("nothing", "x")).getMatched()).isFalse();
  }

  @Test
  void writes_readOnlyAdmin_arePermissionDenied() {
    SluiceAdminGrpc.SluiceAdminBlockingStub admin = start(true);
    assertThat(admin.inspectCounter(counter("user", "u")).getMatched()).isTrue();
    assertCode(
        () -> admin.reload(ReloadRequest.getDefaultInstance()), Status.Code.PERMISSION_DENIED);
    assertCode(() -> admin.resetCounter(counter("user", "u")), Status.Code.PERMISSION_DENIED);
  }

  @Test
  void adminCalls_onTheRlsPort_areUnimplemented() {
    start(false);
    SluiceAdminGrpc.SluiceAdminBlockingStub onRlsPort =
        SluiceAdminGrpc.newBlockingStub(sluice.channel())
            .withCallCredentials(bearer(RunningSluice.ADMIN_TOKEN));
    assertCode(() -> onRlsPort.resetCounter(counter("user", "u")), Status.Code.UNIMPLEMENTED);
    assertCode(
        () -> onRlsPort.reload(ReloadRequest.getDefaultInstance()), Status.Code.UNIMPLEMENTED);
    assertCode(
        () -> onRlsPort.getRules(GetRulesRequest.getDefaultInstance()), Status.Code.UNIMPLEMENTED);
  }

  @Test
  void adminGrpcPort_offByDefault() {
    sluice = RunningSluice.start(RULES, RunningSluice.config(RunningSluice.memoryStore()), clock);
    assertThat(sluice.sluice().adminGrpcPort()).isEmpty();
  }

  @Test
  void writes_withoutOrWithAWrongToken_areUnauthenticated_readsAreOpen() {
    SluiceAdminGrpc.SluiceAdminBlockingStub admin = start(false);
    SluiceAdminGrpc.SluiceAdminBlockingStub anonymous =
        SluiceAdminGrpc.newBlockingStub(sluice.adminChannel());
    SluiceAdminGrpc.SluiceAdminBlockingStub wrong = anonymous.withCallCredentials(bearer("guess"));
    sluice.rls().shouldRateLimit(request("api", descriptor("user", "u")));
    assertCode(() -> anonymous.resetCounter(counter("user", "u")), Status.Code.UNAUTHENTICATED);
    assertCode(() -> wrong.resetCounter(counter("user", "u")), Status.Code.UNAUTHENTICATED);
    assertCode(() -> wrong.reload(ReloadRequest.getDefaultInstance()), Status.Code.UNAUTHENTICATED);
    assertThat(anonymous.inspectCounter(counter("user", "u")).getCount())
        .as("nothing was reset")
        .isEqualTo(1);
    assertThat(anonymous.getRules(GetRulesRequest.getDefaultInstance()).getRulesCount())
        .isEqualTo(2);
    assertThat(admin.resetCounter(counter("user", "u")).getRemoved()).isTrue();
  }

  @Test
  void reads_withTokenForReads_needTheToken() {
    SluiceAdminGrpc.SluiceAdminBlockingStub admin =
        startWith(
            RunningSluice.withAdminToken(RunningSluice.config(RunningSluice.memoryStore()), true),
            false);
    SluiceAdminGrpc.SluiceAdminBlockingStub anonymous =
        SluiceAdminGrpc.newBlockingStub(sluice.adminChannel());
    assertCode(
        () -> anonymous.getRules(GetRulesRequest.getDefaultInstance()),
        Status.Code.UNAUTHENTICATED);
    assertCode(() -> anonymous.inspectCounter(counter("user", "u")), Status.Code.UNAUTHENTICATED);
    assertThat(admin.getRules(GetRulesRequest.getDefaultInstance()).getRulesCount()).isEqualTo(2);
  }

  @Test
  void writes_withoutATokenFile_areRefusedSayingHowToEnableThem() {
    sluice =
        RunningSluice.start(
            RULES,
            RunningSluice.config(RunningSluice.memoryStore()).toBuilder()
                .server(
                    ServerConfig.anyFreePorts().toBuilder()
                        .access(
                            AccessConfig.defaults().toBuilder()
                                .adminGrpcPort(OptionalInt.of(0))
                                .build())
                        .build())
                .build(),
            clock);
    SluiceAdminGrpc.SluiceAdminBlockingStub admin =
        SluiceAdminGrpc.newBlockingStub(sluice.adminChannel())
            .withCallCredentials(bearer("anything"));
    assertThatThrownBy(() -> admin.reload(ReloadRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
              assertThat(e.getStatus().getDescription()).contains("--admin-token-file");
            });
  }
}
