package dev.sluice.admin;

import dev.sluice.limiter.Code;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.InvalidRequestException;
import dev.sluice.service.RateLimitGrpcService;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.grpc.Status;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code POST /json}: the reference service's HTTP form of ShouldRateLimit, for curl-level
 * debugging. The body is a {@code RateLimitRequest} in proto3 JSON; the answer is the {@code
 * RateLimitResponse} in proto3 JSON with 200 (OK) or 429 (OVER_LIMIT). A bad request is 400 with
 * the reason (cut short: it never echoes the body); a failing store is 503. The server answers a
 * body over {@link AdminHttpServer#MAX_BODY_BYTES} with 413 before this runs. These calls count
 * like gRPC ones.
 */
public final class JsonHandler implements AdminRoute {
  private static final long TIMEOUT_SECONDS = 10;

  private final RateLimitGrpcService service;

  public JsonHandler(RateLimitGrpcService service) {
    this.service = service;
  }

  @Override
  public AdminResponse answer(AdminRequest request) {
    if (!request.isMethod("POST")) {
      return AdminResponse.methodNotAllowed("POST");
    }
    RateLimitRequest built;
    try {
      built = RequestJson.parse(request.body());
    } catch (InvalidRequestException e) {
      return AdminResponse.error(400, e.getMessage());
    }
    Decision decision;
    try {
      decision = service.decide(built).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | CompletionException e) {
      Status status = RateLimitGrpcService.statusOf(e.getCause());
      int http = status.getCode() == Status.Code.INVALID_ARGUMENT ? 400 : 503;
      return AdminResponse.error(http, String.valueOf(status.getDescription()));
    } catch (TimeoutException e) {
      return AdminResponse.error(503, "timed out");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return AdminResponse.error(503, "interrupted");
    }
    String json = ProtoJson.print(ProtoJson.ENVOY, service.toResponse(built, decision));
    return AdminResponse.json(decision.overall() == Code.OVER_LIMIT ? 429 : 200, json);
  }
}
