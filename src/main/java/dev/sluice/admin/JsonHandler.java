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
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code POST /json}: the reference service's HTTP form of ShouldRateLimit, for curl-level
 * debugging. The body is a {@code RateLimitRequest} in proto3 JSON; the answer is the {@code
 * RateLimitResponse} in proto3 JSON with 200 (OK) or 429 (OVER_LIMIT). A bad request is 400 with
 * the reason; a failing store is 503; a body over {@link #MAX_BODY_BYTES} is 413 and never read
 * whole. These calls count like gRPC ones.
 */
public final class JsonHandler implements HttpHandler {
  private static final String JSON = "application/json";
  private static final long TIMEOUT_SECONDS = 10;

  /** 1 MiB: a real request is a few hundred bytes; an unbounded body could fill the heap. */
  public static final int MAX_BODY_BYTES = 1 << 20;

  private final RateLimitGrpcService service;

  public JsonHandler(RateLimitGrpcService service) {
    this.service = service;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    if (!AdminHttpServer.requireMethod(exchange, "POST")) {
      return;
    }
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(MAX_BODY_BYTES + 1);
    }
    if (bytes.length > MAX_BODY_BYTES) {
      AdminHttpServer.send(
          exchange,
          413,
          "text/plain; charset=utf-8",
          "request body larger than " + MAX_BODY_BYTES + " bytes\n");
      return;
    }
    RateLimitRequest.Builder request = RateLimitRequest.newBuilder();
    try {
      JsonFormat.parser().merge(new String(bytes, StandardCharsets.UTF_8), request);
    } catch (InvalidProtocolBufferException e) {
      AdminHttpServer.send(
          exchange, 400, "text/plain; charset=utf-8", "invalid request: " + e.getMessage() + "\n");
      return;
    }
    RateLimitRequest built = request.build();
    Decision decision;
    try {
      decision = service.decide(built).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
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
    String json = ProtoJson.print(ProtoJson.ENVOY, service.toResponse(built, decision));
    int http = decision.overall() == Code.OVER_LIMIT ? 429 : 200;
    AdminHttpServer.send(exchange, http, JSON, json);
  }
}
