package dev.sluice.admin;

import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import dev.sluice.admin.v1.CounterRequest;
import dev.sluice.admin.v1.GetRulesRequest;
import dev.sluice.admin.v1.GetRulesResponse;
import dev.sluice.admin.v1.InspectCounterResponse;
import dev.sluice.admin.v1.ReloadError;
import dev.sluice.admin.v1.ReloadRequest;
import dev.sluice.admin.v1.ReloadResponse;
import dev.sluice.admin.v1.ResetCounterResponse;
import dev.sluice.admin.v1.SluiceAdminGrpc;
import dev.sluice.limiter.CounterAdmin;
import dev.sluice.limiter.InvalidRequestException;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Rule;
import dev.sluice.rules.load.RuleProblem;
import dev.sluice.rules.load.RuleReloader;
import dev.sluice.store.Usage;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.net.SocketAddress;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code sluice.admin.v1.SluiceAdmin} on the gRPC port: the same operations as the admin HTTP. */
public final class AdminGrpcService extends SluiceAdminGrpc.SluiceAdminImplBase {
  private static final Logger log = LoggerFactory.getLogger(AdminGrpcService.class);
  private static final Context.Key<SocketAddress> CALLER = Context.key("sluice-caller");

  private final RuleReloader reloader;
  private final CounterAdmin counters;
  private final boolean readOnly;

  public AdminGrpcService(RuleReloader reloader, CounterAdmin counters, boolean readOnly) {
    this.reloader = reloader;
    this.counters = counters;
    this.readOnly = readOnly;
  }

  /** The service with the caller's address made available for the reset log. */
  public ServerServiceDefinition withCallerAddress() {
    return ServerInterceptors.intercept(this, new CallerInterceptor());
  }

  @Override
  public void getRules(GetRulesRequest request, StreamObserver<GetRulesResponse> responses) {
    RuleReloader.Snapshot snapshot = reloader.current();
    GetRulesResponse.Builder response =
        GetRulesResponse.newBuilder()
            .setVersion(snapshot.version())
            .setLoadedAt(timestamp(snapshot.loadedAt()));
    snapshot.files().forEach(file -> response.addFiles(file.toString()));
    snapshot.rules().rules().forEach(rule -> response.addRules(toProto(rule)));
    reloader.lastError().ifPresent(error -> response.setLastReloadError(toProto(error)));
    responses.onNext(response.build());
    responses.onCompleted();
  }

  @Override
  public void reload(ReloadRequest request, StreamObserver<ReloadResponse> responses) {
    if (readOnly) {
      responses.onError(
          Status.PERMISSION_DENIED.withDescription("admin is read-only").asRuntimeException());
      return;
    }
    RuleReloader.Outcome outcome = reloader.reload();
    ReloadResponse.Builder response =
        ReloadResponse.newBuilder()
            .setOutcome(
                outcome == RuleReloader.Outcome.REJECTED
                    ? ReloadResponse.Outcome.REJECTED
                    : ReloadResponse.Outcome.RELOADED)
            .setVersion(reloader.current().version());
    if (outcome == RuleReloader.Outcome.REJECTED) {
      reloader
          .lastError()
          .ifPresent(e -> e.problems().forEach(p -> response.addProblems(p.toString())));
    }
    responses.onNext(response.build());
    responses.onCompleted();
  }

  @Override
  public void inspectCounter(
      CounterRequest request, StreamObserver<InspectCounterResponse> responses) {
    answer(
        request,
        false,
        responses,
        found -> {
          InspectCounterResponse.Builder response =
              InspectCounterResponse.newBuilder().setMatched(found.isPresent());
          found.ifPresent(
              f -> {
                Usage usage = f.counter().usage();
                response
                    .setRule(toProto(f.rule()))
                    .setKey(f.counter().storeKey())
                    .setExists(f.counter().exists())
                    .setCount(usage.countAfter())
                    .setRemaining(usage.remaining())
                    .setDurationUntilReset(
                        Duration.newBuilder()
                            .setSeconds(usage.untilReset().getSeconds())
                            .setNanos(usage.untilReset().getNano()));
              });
          return response.build();
        });
  }

  @Override
  public void resetCounter(CounterRequest request, StreamObserver<ResetCounterResponse> responses) {
    if (readOnly) {
      responses.onError(
          Status.PERMISSION_DENIED.withDescription("admin is read-only").asRuntimeException());
      return;
    }
    SocketAddress caller = CALLER.get();
    answer(
        request,
        true,
        responses,
        found -> {
          log.warn(
              "counter reset by {} (grpc): domain {} entries {} -> {}",
              caller,
              request.getDomain(),
              entries(request),
              found
                  .map(
                      f ->
                          f.counter().storeKey()
                              + (f.counter().exists() ? " removed" : " was empty"))
                  .orElse("no counted rule"));
          ResetCounterResponse.Builder response =
              ResetCounterResponse.newBuilder().setMatched(found.isPresent());
          found.ifPresent(
              f -> response.setKey(f.counter().storeKey()).setRemoved(f.counter().exists()));
          return response.build();
        });
  }

  private <T> void answer(
      CounterRequest request,
      boolean reset,
      StreamObserver<T> responses,
      java.util.function.Function<Optional<CounterAdmin.Found>, T> toResponse) {
    CompletableFuture<Optional<CounterAdmin.Found>> found;
    try {
      List<Entry> entries = entries(request);
      found =
          reset
              ? counters.reset(request.getDomain(), entries)
              : counters.inspect(request.getDomain(), entries);
    } catch (InvalidRequestException e) {
      responses.onError(
          Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
      return;
    }
    found.whenComplete(
        (result, failure) -> {
          if (failure != null) {
            responses.onError(
                Status.UNAVAILABLE
                    .withDescription("store: " + failure.getMessage())
                    .asRuntimeException());
          } else {
            responses.onNext(toResponse.apply(result));
            responses.onCompleted();
          }
        });
  }

  private static List<Entry> entries(CounterRequest request) {
    return request.getEntriesList().stream().map(e -> new Entry(e.getKey(), e.getValue())).toList();
  }

  private static dev.sluice.admin.v1.Rule toProto(Rule rule) {
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
        .setRequestsPerUnit((int) limit.requestsPerUnit())
        .setUnit(limit.unit().name().toLowerCase(Locale.ROOT))
        .setAlgorithm(limit.algorithm().configName())
        .setBurst((int) limit.burst());
  }

  private static ReloadError toProto(RuleReloader.ReloadError error) {
    return ReloadError.newBuilder()
        .setAt(timestamp(error.at()))
        .addAllProblems(error.problems().stream().map(RuleProblem::toString).toList())
        .build();
  }

  private static Timestamp timestamp(Instant instant) {
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }

  /** Puts the peer's address in the call context; grpc-java only exposes it on the call. */
  private static final class CallerInterceptor implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      Context context =
          Context.current()
              .withValue(CALLER, call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
      return Contexts.interceptCall(context, call, headers, next);
    }
  }
}
