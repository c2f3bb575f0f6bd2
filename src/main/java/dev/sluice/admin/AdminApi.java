package dev.sluice.admin;

import dev.sluice.admin.v1.CounterRequest;
import dev.sluice.admin.v1.ExplainResponse;
import dev.sluice.admin.v1.GetRulesResponse;
import dev.sluice.admin.v1.InspectCounterResponse;
import dev.sluice.admin.v1.MetricLabelRequest;
import dev.sluice.admin.v1.MetricLabelResponse;
import dev.sluice.admin.v1.ReloadResponse;
import dev.sluice.admin.v1.ResetCounterResponse;
import dev.sluice.explain.RequestExplainer;
import dev.sluice.logging.LogText;
import dev.sluice.rules.Entry;
import dev.sluice.rules.load.RuleReloader;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin API behind both transports (admin HTTP and {@code sluice.admin.v1.SluiceAdmin}): one
 * access check, one audit line per write, one rendering into the {@code sluice.admin.v1} messages.
 * Every method answers through its future and never throws: a refused or bad call fails the future,
 * and {@link AdminFailure#of} turns that into a gRPC or HTTP status.
 */
public final class AdminApi {
  private static final Logger audit = LoggerFactory.getLogger("dev.sluice.admin.audit");

  private final RuleReloader reloader;
  private final CounterAdmin counters;
  private final AdminAccess access;
  private final RequestExplainer explainer;

  public AdminApi(
      RuleReloader reloader,
      CounterAdmin counters,
      AdminAccess access,
      RequestExplainer explainer) {
    this.reloader = reloader;
    this.counters = counters;
    this.access = access;
    this.explainer = explainer;
  }

  /** Passes when {@code caller} may read; for endpoints outside this API (health, metrics). */
  public CompletableFuture<Void> authorizeRead(Caller caller) {
    return call(
        () -> {
          access.check(caller, AdminAccess.Kind.READ);
          return CompletableFuture.completedFuture(null);
        });
  }

  public CompletableFuture<GetRulesResponse> rules(Caller caller) {
    return call(
        () -> {
          access.check(caller, AdminAccess.Kind.READ);
          return CompletableFuture.completedFuture(
              AdminProtos.rules(reloader.current(), reloader.lastError()));
        });
  }

  /** Explains {@code request} without consuming anything: a read. */
  public CompletableFuture<ExplainResponse> explain(Caller caller, RateLimitRequest request) {
    return call(
        () -> {
          access.check(caller, AdminAccess.Kind.READ);
          return explainer.explain(request);
        });
  }

  /** The whole request values behind a detailed series' label in /metrics: a read. */
  public CompletableFuture<MetricLabelResponse> metricLabel(
      Caller caller, MetricLabelRequest request) {
    return call(
        () -> {
          access.check(caller, AdminAccess.Kind.READ);
          MetricLabelResponse.Builder response = MetricLabelResponse.newBuilder();
          counters
              .metricLabel(request.getDomain(), request.getLabel())
              .ifPresent(
                  found ->
                      response
                          .setFound(true)
                          .setRule(found.rule())
                          .setValue(found.value().orElse(""))
                          .setValueKept(found.value().isPresent()));
          return CompletableFuture.completedFuture(response.build());
        });
  }

  public CompletableFuture<ReloadResponse> reload(Caller caller) {
    CompletableFuture<ReloadResponse> answer =
        call(
            () -> {
              access.check(caller, AdminAccess.Kind.WRITE);
              return CompletableFuture.completedFuture(reloadNow());
            });
    return audited(
        answer, caller, "reload", "rules", r -> r.getOutcome() + " version " + r.getVersion());
  }

  public CompletableFuture<InspectCounterResponse> inspect(Caller caller, CounterRequest request) {
    return call(
        () -> {
          access.check(caller, AdminAccess.Kind.READ);
          return counters
              .inspect(request.getDomain(), entries(request))
              .thenApply(AdminProtos::inspected);
        });
  }

  public CompletableFuture<ResetCounterResponse> reset(Caller caller, CounterRequest request) {
    CompletableFuture<ResetCounterResponse> answer =
        call(
            () -> {
              access.check(caller, AdminAccess.Kind.WRITE);
              return counters
                  .reset(request.getDomain(), entries(request))
                  .thenApply(AdminProtos::reset);
            });
    String target =
        "domain "
            + request.getDomain()
            + " entries "
            + request.getEntriesList().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
    return audited(
        answer,
        caller,
        "counter reset",
        target,
        r ->
            !r.getMatched()
                ? "no counted rule"
                : r.getKey() + (r.getRemoved() ? " removed" : " was empty"));
  }

  private ReloadResponse reloadNow() {
    RuleReloader.Outcome outcome = reloader.reload();
    ReloadResponse.Builder response =
        ReloadResponse.newBuilder()
            .setOutcome(
                switch (outcome) {
                  case RELOADED -> ReloadResponse.Outcome.RELOADED;
                  case UNCHANGED -> ReloadResponse.Outcome.UNCHANGED;
                  case REJECTED -> ReloadResponse.Outcome.REJECTED;
                })
            .setVersion(reloader.current().version());
    if (outcome == RuleReloader.Outcome.REJECTED) {
      reloader
          .lastError()
          .ifPresent(e -> e.problems().forEach(p -> response.addProblems(p.toString())));
    }
    return response.build();
  }

  /** One audit line per write, refused ones included, with the caller and the result. */
  private static <T> CompletableFuture<T> audited(
      CompletableFuture<T> answer,
      Caller caller,
      String operation,
      String target,
      java.util.function.Function<T, String> result) {
    return answer.whenComplete(
        (value, failure) ->
            audit.warn(
                "admin write {} by {}: {} -> {}",
                operation,
                LogText.safe(caller),
                LogText.safe(target),
                LogText.safe(
                    failure == null
                        ? result.apply(value)
                        : "refused: " + AdminFailure.of(failure).message())));
  }

  private static <T> CompletableFuture<T> call(Supplier<CompletableFuture<T>> body) {
    try {
      return body.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static List<Entry> entries(CounterRequest request) {
    return request.getEntriesList().stream().map(e -> new Entry(e.getKey(), e.getValue())).toList();
  }
}
