package dev.sluice.admin;

import dev.sluice.admin.v1.CounterRequest;
import dev.sluice.admin.v1.ExplainRequest;
import dev.sluice.admin.v1.ExplainResponse;
import dev.sluice.admin.v1.GetRulesRequest;
import dev.sluice.admin.v1.GetRulesResponse;
import dev.sluice.admin.v1.InspectCounterResponse;
import dev.sluice.admin.v1.MetricLabelRequest;
import dev.sluice.admin.v1.MetricLabelResponse;
import dev.sluice.admin.v1.ReloadRequest;
import dev.sluice.admin.v1.ReloadResponse;
import dev.sluice.admin.v1.ResetCounterResponse;
import dev.sluice.admin.v1.SluiceAdminGrpc;
import dev.sluice.explain.RequestExplainer;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.StreamObserver;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * {@code sluice.admin.v1.SluiceAdmin}: the gRPC transport of {@link AdminApi}. Served only on the
 * admin gRPC port, never next to Envoy's RLS. The token travels as {@code authorization: Bearer
 * <token>} metadata.
 */
public final class AdminGrpcService extends SluiceAdminGrpc.SluiceAdminImplBase {
  private static final Context.Key<Caller> CALLER = Context.key("sluice-admin-caller");
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final AdminApi api;

  public AdminGrpcService(AdminApi api) {
    this.api = api;
  }

  /** The service with the caller (address, token) taken from each call. */
  public ServerServiceDefinition withCaller() {
    return ServerInterceptors.intercept(this, new CallerInterceptor());
  }

  @Override
  public void getRules(GetRulesRequest request, StreamObserver<GetRulesResponse> responses) {
    answer(api.rules(caller()), responses);
  }

  @Override
  public void reload(ReloadRequest request, StreamObserver<ReloadResponse> responses) {
    answer(api.reload(caller()), responses);
  }

  @Override
  public void inspectCounter(
      CounterRequest request, StreamObserver<InspectCounterResponse> responses) {
    answer(api.inspect(caller(), request), responses);
  }

  @Override
  public void resetCounter(CounterRequest request, StreamObserver<ResetCounterResponse> responses) {
    answer(api.reset(caller(), request), responses);
  }

  @Override
  public void explain(ExplainRequest request, StreamObserver<ExplainResponse> responses) {
    answer(api.explain(caller(), RequestExplainer.toEnvoy(request)), responses);
  }

  @Override
  public void getMetricLabel(
      MetricLabelRequest request, StreamObserver<MetricLabelResponse> responses) {
    answer(api.metricLabel(caller(), request), responses);
  }

  private static Caller caller() {
    Caller caller = CALLER.get();
    return caller == null ? new Caller("grpc", "unknown", Optional.empty()) : caller;
  }

  private static <T> void answer(CompletableFuture<T> answer, StreamObserver<T> responses) {
    answer.whenComplete(
        (response, failure) -> {
          if (failure != null) {
            responses.onError(AdminFailure.of(failure).asGrpc());
          } else {
            responses.onNext(response);
            responses.onCompleted();
          }
        });
  }

  /** Puts the caller in the call context; grpc-java only exposes peer and headers on the call. */
  private static final class CallerInterceptor implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      Caller caller =
          new Caller(
              "grpc",
              String.valueOf(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR)),
              Caller.bearerOf(headers.get(AUTHORIZATION)));
      return Contexts.interceptCall(
          Context.current().withValue(CALLER, caller), call, headers, next);
    }
  }
}
