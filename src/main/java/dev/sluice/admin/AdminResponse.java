package dev.sluice.admin;

import com.google.protobuf.MessageOrBuilder;
import dev.sluice.logging.LogText;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.ToIntFunction;

/**
 * One whole answer of the admin HTTP port.
 *
 * @param headers extra headers beside {@code Content-Type} (e.g. {@code Allow})
 */
public record AdminResponse(
    int status, String contentType, byte[] body, Map<String, String> headers) {
  public static final String JSON = "application/json";
  public static final String TEXT = "text/plain; charset=utf-8";

  /** How long a route waits for the admin API's answer (a store read) before answering 503. */
  static final long ANSWER_TIMEOUT_SECONDS = 10;

  public AdminResponse {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(body, "body");
    headers = Map.copyOf(headers);
  }

  public static AdminResponse of(int status, String contentType, byte[] body) {
    return new AdminResponse(status, contentType, body, Map.of());
  }

  public static AdminResponse text(int status, String body) {
    return of(status, TEXT, body.getBytes(StandardCharsets.UTF_8));
  }

  public static AdminResponse json(int status, String json) {
    return of(status, JSON, json.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A plain-text error. {@code message} may quote what the caller sent (a parser's complaint about
   * a 500 KB number), so it is cut to a short prefix, with control characters escaped: an error
   * never echoes a request back.
   */
  public static AdminResponse error(int status, String message) {
    return text(status, LogText.safe(message) + "\n");
  }

  /** {@code failure} as plain text with its HTTP status; a 401 names the scheme to use. */
  public static AdminResponse failure(AdminFailure failure) {
    AdminResponse response = error(failure.http(), failure.message());
    return failure.http() == 401 ? response.withHeader("WWW-Authenticate", "Bearer") : response;
  }

  /** 405 naming the methods {@code allowed} (e.g. {@code "GET, DELETE"}). */
  public static AdminResponse methodNotAllowed(String allowed) {
    return text(405, "use " + allowed.replace(", ", " or ") + "\n").withHeader("Allow", allowed);
  }

  public static AdminResponse notFound() {
    return text(404, "not found\n");
  }

  /**
   * What {@code answer} completes with as admin JSON, with the status {@code statusOf} picks for
   * it; a failure (or no answer within 10 s) is answered by {@link AdminFailure}'s mapping. Blocks:
   * for routes on the handler threads.
   */
  public static <M extends MessageOrBuilder> AdminResponse answer(
      CompletableFuture<M> answer, ToIntFunction<M> statusOf) {
    M response;
    try {
      response = answer.get(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      return failure(AdminFailure.of(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return failure(AdminFailure.of(e));
    }
    return json(statusOf.applyAsInt(response), ProtoJson.print(ProtoJson.ADMIN, response));
  }

  /** This answer with one more header. */
  public AdminResponse withHeader(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name, value);
    return new AdminResponse(status, contentType, body, more);
  }

  /** The body as text, for tests and logs. */
  public String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
