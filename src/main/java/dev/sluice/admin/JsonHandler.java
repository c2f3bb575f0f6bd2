package dev.sluice.admin;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.sluice.limiter.Code;
import dev.sluice.limiter.Decision;
import dev.sluice.service.RateLimitGrpcService;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.grpc.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code POST /json}: the reference service's HTTP form of ShouldRateLimit, for curl-level
 * debugging. The body is a {@code RateLimitRequest} in proto3 JSON; the answer is the {@code
 * RateLimitResponse} in proto3 JSON with 200 (OK) or 429 (OVER_LIMIT). A bad request is 400 with
 * the reason; a failing store is 503. These calls count like gRPC ones.
 */
public final class JsonHandler implements HttpHandler {
  private static final String JSON = "application/json";
  private static final long TIMEOUT_SECONDS = 10;

  private final RateLimitGrpcService service;

  public JsonHandler(RateLimitGrpcService service) {
    this.service = service;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    if (!AdminHttpServer.requireMethod(exchange, "POST")) {
      return;
    }
    RateLimitRequest.Builder request = RateLimitRequest.newBuilder();
    try {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      JsonFormat.parser().merge(body, request);
    } catch (InvalidProtocolBufferException e) {
      AdminHttpServer.send(
          exchange, 400, "text/plain; charset=utf-8", "invalid request: " + e.getMessage() + "\n");
      return;
    }
    Decision decision;
    try {
      decision = service.decide(request.build()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | CompletionException e) {
      Status status = RateLimitGrpcService.statusOf(e.getCause());
      int http = status.getCode() == Status.Code.INVALID_ARGUMENT ? 400 : 503;
      AdminHttpServer.send(
          exchange, http, "text/plain; charset=utf-8", status.getDescription() + "\n");
      return;
    } catch (TimeoutException e) {
      AdminHttpServer.send(exchange, 503, "text/plain; charset=utf-8", "timed out\n");
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      AdminHttpServer.send(exchange, 503, "text/plain; charset=utf-8", "interrupted\n");
      return;
    }
    String json = JsonFormat.printer().print(service.toResponse(decision));
    int http = decision.overall() == Code.OVER_LIMIT ? 429 : 200;
    AdminHttpServer.send(exchange, http, JSON, json + "\n");
  }
}
