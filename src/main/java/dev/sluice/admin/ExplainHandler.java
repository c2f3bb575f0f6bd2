package dev.sluice.admin;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.sluice.admin.v1.ExplainResponse;
import dev.sluice.limiter.InvalidRequestException;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /explain}: the body is a {@code RateLimitRequest} in proto3 JSON (as for {@code
 * /json}); the answer is {@code sluice.admin.v1.ExplainResponse} as admin JSON, 200. Nothing is
 * consumed. A read of the admin API: with {@code --admin-token-for-reads} it needs the token, which
 * is checked before the body is looked at (a caller without it learns nothing, not even whether its
 * JSON parses). Bad JSON or a request ShouldRateLimit would refuse is 400; a body over {@link
 * JsonHandler#MAX_BODY_BYTES} is 413; an unreadable store is 503.
 */
public final class ExplainHandler implements HttpHandler {
  private final AdminApi api;

  public ExplainHandler(AdminApi api) {
    this.api = api;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    if (!AdminHttpServer.requireMethod(exchange, "POST")) {
      return;
    }
    Caller caller = AdminHttpServer.caller(exchange);
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(JsonHandler.MAX_BODY_BYTES + 1);
    }
    if (bytes.length > JsonHandler.MAX_BODY_BYTES) {
      AdminHttpServer.send(
          exchange,
          413,
          AdminHttpServer.TEXT,
          "request body larger than " + JsonHandler.MAX_BODY_BYTES + " bytes\n");
      return;
    }
    AdminHttpServer.answer(exchange, explain(caller, bytes), r -> 200);
  }

  private CompletableFuture<ExplainResponse> explain(Caller caller, byte[] body) {
    RateLimitRequest.Builder request = RateLimitRequest.newBuilder();
    try {
      JsonFormat.parser().merge(new String(body, StandardCharsets.UTF_8), request);
    } catch (InvalidProtocolBufferException e) {
      InvalidRequestException invalid =
          new InvalidRequestException("invalid RateLimitRequest JSON: " + e.getMessage());
      return api.authorizeRead(caller).thenCompose(ok -> CompletableFuture.failedFuture(invalid));
    }
    return api.explain(caller, request.build());
  }
}
