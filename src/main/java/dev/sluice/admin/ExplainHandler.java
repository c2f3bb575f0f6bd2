package dev.sluice.admin;

import dev.sluice.admin.v1.ExplainResponse;
import dev.sluice.limiter.InvalidRequestException;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /explain}: the body is a {@code RateLimitRequest} in proto3 JSON (as for {@code
 * /json}); the answer is {@code sluice.admin.v1.ExplainResponse} as admin JSON, 200. Nothing is
 * consumed. A read of the admin API: with {@code --admin-token-for-reads} it needs the token, which
 * the route's {@link ReadGuard} checks before the body is read (a caller without it learns nothing,
 * not even whether its body is too large or its JSON parses). Bad JSON or a request ShouldRateLimit
 * would refuse is 400, with the reason cut short; an unreadable store is 503. The server answers a
 * body over {@link AdminHttpServer#MAX_BODY_BYTES} with 413 before this runs.
 */
public final class ExplainHandler implements AdminRoute {
  private final AdminApi api;

  public ExplainHandler(AdminApi api) {
    this.api = api;
  }

  @Override
  public AdminResponse answer(AdminRequest request) {
    if (!request.isMethod("POST")) {
      return AdminResponse.methodNotAllowed("POST");
    }
    return AdminResponse.answer(explain(request.caller(), request.body()), r -> 200);
  }

  private CompletableFuture<ExplainResponse> explain(Caller caller, byte[] body) {
    RateLimitRequest request;
    try {
      request = RequestJson.parse(body);
    } catch (InvalidRequestException invalid) {
      return api.authorizeRead(caller).thenCompose(ok -> CompletableFuture.failedFuture(invalid));
    }
    return api.explain(caller, request);
  }
}
