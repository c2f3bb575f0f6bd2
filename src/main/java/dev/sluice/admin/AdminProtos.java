package dev.sluice.admin;

import dev.sluice.admin.v1.GetRulesResponse;
import dev.sluice.admin.v1.InspectCounterResponse;
import dev.sluice.admin.v1.ReloadError;
import dev.sluice.admin.v1.ResetCounterResponse;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Rule;
import dev.sluice.rules.Window;
import dev.sluice.rules.load.RuleProblem;
import dev.sluice.rules.load.RuleReloader;
import dev.sluice.service.ProtoValues;
import dev.sluice.store.Usage;
import java.util.Locale;
import java.util.Optional;

/** The one rendering of rules, reload errors and counters into {@code sluice.admin.v1}. */
public final class AdminProtos {
  private AdminProtos() {}

  static GetRulesResponse rules(
      RuleReloader.Snapshot snapshot, Optional<RuleReloader.ReloadError> error) {
    GetRulesResponse.Builder response =
        GetRulesResponse.newBuilder()
            .setVersion(snapshot.version())
            .setLoadedAt(ProtoValues.timestamp(snapshot.loadedAt()));
    snapshot.files().forEach(file -> response.addFiles(file.toString()));
    snapshot.rules().rules().forEach(rule -> response.addRules(rule(rule)));
    error.ifPresent(e -> response.setLastReloadError(reloadError(e)));
    return response.build();
  }

  /** A rule as the admin API shows it; limits clamped to uint32 like the RLS response. */
  public static dev.sluice.admin.v1.Rule rule(Rule rule) {
    dev.sluice.admin.v1.Rule.Builder proto =
        dev.sluice.admin.v1.Rule.newBuilder()
            .setDomain(rule.domain())
            .setPath(rule.path())
            .setName(rule.name())
            .setUnlimited(rule.unlimited())
            .setShadowMode(rule.shadowMode())
            .setQuotaMode(rule.flags().quotaMode())
            .setDetailedMetric(rule.flags().detailedMetric())
            .addAllReplaces(rule.replaces().stream().sorted().toList())
            .setOrigin(rule.origin());
    rule.limit().ifPresent(limit -> setLimit(proto, limit));
    return proto.build();
  }

  private static void setLimit(dev.sluice.admin.v1.Rule.Builder proto, Limit limit) {
    proto
        .setRequestsPerUnit(ProtoValues.uint32(limit.requestsPerUnit()))
        .setUnit(limit.unit().name().toLowerCase(Locale.ROOT))
        .setAlgorithm(limit.algorithm().configName())
        .setBurst(ProtoValues.uint32(limit.burst()))
        .setConsistency(limit.consistency().configName())
        .setWindow(limit.window().words());
    if (limit.window() instanceof Window.Fixed fixed) {
      proto.setUnitMultiplier(ProtoValues.uint32(fixed.multiplier()));
    } else if (limit.window() instanceof Window.Calendar calendar) {
      proto.setUnitMultiplier(1).setTimeZone(calendar.zone().getId());
    }
  }

  static ReloadError reloadError(RuleReloader.ReloadError error) {
    return ReloadError.newBuilder()
        .setAt(ProtoValues.timestamp(error.at()))
        .addAllProblems(error.problems().stream().map(RuleProblem::toString).toList())
        .build();
  }

  static InspectCounterResponse inspected(Optional<CounterAdmin.Found> found) {
    InspectCounterResponse.Builder response =
        InspectCounterResponse.newBuilder().setMatched(found.isPresent());
    found.ifPresent(
        f -> {
          Usage usage = f.counter().usage();
          response
              .setRule(rule(f.rule()))
              .setKey(f.counter().storeKey())
              .setExists(f.counter().exists())
              .setCount(usage.countAfter())
              .setRemaining(usage.remaining())
              .setDurationUntilReset(ProtoValues.duration(usage.untilReset()));
          f.counter()
              .local()
              .ifPresent(
                  local ->
                      response
                          .setConsistency(local.consistency().configName())
                          .setKnownGlobal(local.knownGlobal())
                          .setUnsynced(local.unsynced())
                          .setSplitInstances(local.splitInstances()));
        });
    return response.build();
  }

  static ResetCounterResponse reset(Optional<CounterAdmin.Found> found) {
    ResetCounterResponse.Builder response =
        ResetCounterResponse.newBuilder().setMatched(found.isPresent());
    found.ifPresent(
        f ->
            response
                .setRule(rule(f.rule()))
                .setKey(f.counter().storeKey())
                .setRemoved(f.counter().exists()));
    return response.build();
  }
}
