package dev.sluice.admin;

import dev.sluice.config.AdminHttpConfig;
import dev.sluice.threads.DaemonThreadFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * The admin HTTP port, on Jetty's core server (no servlets). The JDK's {@code HttpServer} read each
 * request's line and headers blocking on a pool thread with no deadline, so two connections that
 * sent one byte each took the port, and the Kubernetes probe on it, down. Here:
 *
 * <ul>
 *   <li>request lines and headers are parsed on I/O threads as bytes arrive, holding no thread
 *       while a client is slow; a connection has the header timeout to send them all (at most
 *       {@link #MAX_HEADER_BYTES}) and is closed after one answer;
 *   <li>a body is read asynchronously, after the route's {@link AdminGate}, at most {@link
 *       #MAX_BODY_BYTES} within the body timeout (413, 408);
 *   <li>routes that may block run on a bounded pool of handler threads (503 when its queue is
 *       full); {@link Lane#IO} routes ({@code /healthcheck}) are answered on the I/O thread, so
 *       they never wait behind slow routes;
 *   <li>connections are bounded ({@link AdminConnections}).
 * </ul>
 *
 * Nothing is written to disk. Routes are registered before {@link #start}.
 *
 * <p>Threads: {@code admin-http-io-N} (Jetty's accept, select and parse; {@link Lane#IO} routes),
 * {@code admin-http-N} (the handler pool), {@code admin-http-timer-0} (deadlines).
 */
public final class AdminHttpServer implements AutoCloseable {
  /** 1 MiB: a real request is a few hundred bytes; an unbounded body could fill the heap. */
  public static final int MAX_BODY_BYTES = 1 << 20;

  /**
   * 64 KiB of request line and headers: room for a {@code /counters} query holding a value at the
   * default {@code --max-value-bytes} (8 KiB, three times that percent-encoded).
   */
  public static final int MAX_HEADER_BYTES = 64 * 1024;

  // I/O threads: acceptor, selector and the parsing and answering of IO-lane routes; none blocks.
  private static final int IO_THREADS = 6;
  private static final int HANDLER_QUEUE = 64;
  // Stalls while writing an answer to a client that does not read (headers and bodies have their
  // own deadlines); longer than a route may take (10 s), which Jetty also counts as idle.
  private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

  /** Where a route runs. */
  public enum Lane {
    /** On the I/O thread that read the request: only for routes that never block. */
    IO,
    /** On the handler pool ({@code --http-threads}): for routes that may wait on a store. */
    HANDLERS
  }

  private final Server jetty;
  private final ServerConnector connector;
  private final ThreadPoolExecutor handlers;
  private final ScheduledExecutorService timer;
  private final AdminDispatch dispatch;
  private final InetSocketAddress address;

  public AdminHttpServer(InetSocketAddress address, AdminHttpConfig limits) {
    this.address = address;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(new DaemonThreadFactory("admin-http-timer"));
    this.handlers =
        new ThreadPoolExecutor(
            limits.threads(),
            limits.threads(),
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(HANDLER_QUEUE),
            new DaemonThreadFactory("admin-http"));
    ScheduledExecutorScheduler scheduler = new ScheduledExecutorScheduler(timer);
    this.jetty = new Server(ioThreads(), scheduler, null);
    AdminConnections connections =
        new AdminConnections(scheduler, limits.headerTimeout(), limits.maxConnections());
    this.connector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(httpConfig()));
    connector.setHost(address.getHostString());
    connector.setPort(address.getPort());
    connector.setIdleTimeout(IDLE_TIMEOUT.toMillis());
    connector.addBean(connections);
    jetty.addConnector(connector);
    jetty.setErrorHandler(new PlainErrors());
    this.dispatch = new AdminDispatch(connections, handlers, scheduler, limits.bodyTimeout());
    jetty.setHandler(dispatch);
  }

  private static QueuedThreadPool ioThreads() {
    QueuedThreadPool threads =
        new QueuedThreadPool(
            IO_THREADS, 2, 60_000, 0, null, null, new DaemonThreadFactory("admin-http-io"));
    threads.setName("admin-http-io");
    threads.setDaemon(true);
    return threads;
  }

  private static HttpConfiguration httpConfig() {
    HttpConfiguration http = new HttpConfiguration();
    http.setRequestHeaderSize(MAX_HEADER_BYTES);
    // One request per connection: the header deadline then runs from the connection's opening,
    // and a probe or a scrape costs a connect, which is nothing next to the work it asks for.
    http.setPersistentConnectionsEnabled(false);
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    return http;
  }

  /**
   * Serves {@code path} and every path under it: {@code gate} decides from the headers, then {@code
   * route} answers on {@code lane}. The longest registered path that matches wins.
   */
  public AdminHttpServer handle(String path, AdminGate gate, Lane lane, AdminRoute route) {
    dispatch.add(new AdminDispatch.Route(path, gate, lane, route));
    return this;
  }

  /**
   * @throws UncheckedIOException when the port cannot be bound
   */
  public AdminHttpServer start() {
    try {
      jetty.start();
    } catch (Exception e) {
      close();
      throw new UncheckedIOException(
          "cannot listen for HTTP on port "
              + address.getPort()
              + " ("
              + address.getHostString()
              + ")",
          e instanceof IOException io ? io : new IOException(e));
    }
    return this;
  }

  public int port() {
    return connector.getLocalPort();
  }

  @Override
  public void close() {
    try {
      jetty.stop();
    } catch (Exception e) {
      throw new IllegalStateException("admin http server did not stop", e);
    } finally {
      handlers.shutdownNow();
      timer.shutdownNow();
    }
  }

  /**
   * Jetty's own answers (a malformed request line, headers over the limit): the status and its
   * reason only, never a part of the request.
   */
  private static final class PlainErrors extends ErrorHandler {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      int status =
          request.getAttribute(ERROR_STATUS) instanceof Integer code ? code : response.getStatus();
      response.setStatus(status);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, AdminResponse.TEXT);
      response.write(true, ByteBuffer.wrap(text(status)), callback);
      return true;
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
      fields.put(HttpHeader.CONTENT_TYPE, AdminResponse.TEXT);
      return ByteBuffer.wrap(text(status));
    }

    private static byte[] text(int status) {
      return (status + " " + HttpStatus.getMessage(status) + "\n").getBytes(StandardCharsets.UTF_8);
    }
  }
}
