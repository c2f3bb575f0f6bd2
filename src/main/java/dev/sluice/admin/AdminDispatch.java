package dev.sluice.admin;

import dev.sluice.logging.LogText;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes each admin HTTP request from its headers to its answer without ever blocking the I/O thread
 * that parsed it: route by path, the route's {@link AdminGate}, the body read whole asynchronously
 * (at most {@link AdminHttpServer#MAX_BODY_BYTES}, within the body timeout), then the route on its
 * lane. Whatever a gate or route throws ({@code Throwable}, an {@link OutOfMemoryError} too) is
 * answered 500, so every exchange is completed.
 *
 * <p>Threads: {@link #handle} runs on an I/O thread; the body completes on an I/O thread or the
 * timer's; {@link AdminHttpServer.Lane#IO} routes run there, the others on the handler pool.
 */
final class AdminDispatch extends Handler.Abstract.NonBlocking {
  private static final Logger log = LoggerFactory.getLogger(AdminDispatch.class);

  record Route(String path, AdminGate gate, AdminHttpServer.Lane lane, AdminRoute route) {}

  // Longest path first, so /ui/data wins over /ui; filled before the server starts.
  private final List<Route> routes = new CopyOnWriteArrayList<>();
  private final AdminConnections connections;
  private final Executor handlers;
  private final Scheduler timer;
  private final Duration bodyTimeout;

  AdminDispatch(
      AdminConnections connections, Executor handlers, Scheduler timer, Duration bodyTimeout) {
    this.connections = connections;
    this.handlers = handlers;
    this.timer = timer;
    this.bodyTimeout = bodyTimeout;
  }

  void add(Route route) {
    routes.add(route);
    routes.sort(Comparator.comparingInt((Route r) -> r.path().length()).reversed());
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    connections.headersArrived(request.getConnectionMetaData().getConnection());
    AdminRequest head = head(request);
    Optional<Route> route = routeOf(head.path());
    if (route.isEmpty()) {
      send(response, callback, AdminResponse::notFound);
      return true;
    }
    Optional<AdminResponse> refusal = refusal(route.get(), head);
    if (refusal.isPresent()) {
      send(response, callback, refusal::get);
    } else if (request.getLength() > AdminHttpServer.MAX_BODY_BYTES) {
      send(response, callback, AdminDispatch::tooLarge);
    } else if (request.getLength() == 0) {
      run(route.get(), head, response, callback);
    } else {
      readBody(request)
          .whenComplete(
              (body, failure) -> {
                if (failure == null) {
                  run(route.get(), head.withBody(body), response, callback);
                } else {
                  send(response, callback, () -> unreadable(failure));
                }
              });
    }
    return true;
  }

  private static AdminRequest head(Request request) {
    String query = request.getHttpURI().getQuery();
    Caller caller =
        new Caller(
            "http",
            String.valueOf(request.getConnectionMetaData().getRemoteSocketAddress()),
            Caller.bearerOf(request.getHeaders().get(HttpHeader.AUTHORIZATION)));
    return new AdminRequest(
        request.getMethod(),
        Request.getPathInContext(request),
        query == null ? "" : query,
        caller,
        new byte[0]);
  }

  private Optional<Route> routeOf(String path) {
    return routes.stream()
        .filter(r -> path.equals(r.path()) || path.startsWith(r.path() + "/"))
        .findFirst();
  }

  private static Optional<AdminResponse> refusal(Route route, AdminRequest head) {
    try {
      return route.gate().refusal(head);
    } catch (Throwable e) {
      return Optional.of(internalError(head, e));
    }
  }

  /** The whole body, failed with a TimeoutException when it is not in within the body timeout. */
  private CompletableFuture<byte[]> readBody(Request request) {
    CompletableFuture<byte[]> body = BodyReader.read(request, AdminHttpServer.MAX_BODY_BYTES);
    Scheduler.Task deadline =
        timer.schedule(
            () -> body.completeExceptionally(new TimeoutException()),
            bodyTimeout.toNanos(),
            TimeUnit.NANOSECONDS);
    return body.whenComplete((bytes, failure) -> deadline.cancel());
  }

  private void run(Route route, AdminRequest request, Response response, Callback callback) {
    Supplier<AdminResponse> answer =
        () -> {
          try {
            return route.route().answer(request);
          } catch (Throwable e) {
            return internalError(request, e);
          }
        };
    if (route.lane() == AdminHttpServer.Lane.IO) {
      send(response, callback, answer);
      return;
    }
    try {
      handlers.execute(() -> send(response, callback, answer));
    } catch (RejectedExecutionException e) {
      send(response, callback, () -> AdminResponse.error(503, "admin port busy: try again"));
    }
  }

  private static AdminResponse tooLarge() {
    return AdminResponse.error(
        413, "request body larger than " + AdminHttpServer.MAX_BODY_BYTES + " bytes");
  }

  private static AdminResponse unreadable(Throwable failure) {
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    if (cause instanceof BodyReader.TooLarge) {
      return tooLarge();
    }
    if (cause instanceof TimeoutException) {
      return AdminResponse.error(408, "request body not received in time");
    }
    return AdminResponse.error(400, "request body unreadable: " + cause);
  }

  private static AdminResponse internalError(AdminRequest request, Throwable e) {
    try {
      log.error(
          "admin {} {} failed", LogText.safe(request.method()), LogText.safe(request.path()), e);
    } catch (Throwable ignored) {
      // Out of memory even for the log line: the answer below matters more.
    }
    return AdminResponse.error(500, "internal error: " + e.getClass().getName());
  }

  /** Writes {@code answer}; the exchange is completed whatever happens. */
  private static void send(Response response, Callback callback, Supplier<AdminResponse> answer) {
    try {
      AdminResponse out = answer.get();
      response.setStatus(out.status());
      HttpFields.Mutable headers = response.getHeaders();
      headers.put(HttpHeader.CONTENT_TYPE, out.contentType());
      out.headers().forEach(headers::put);
      response.write(true, ByteBuffer.wrap(out.body()), callback);
    } catch (Throwable e) {
      callback.failed(e);
    }
  }
}
