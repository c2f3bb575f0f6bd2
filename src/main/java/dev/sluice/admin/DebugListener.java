package dev.sluice.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * envoyproxy/ratelimit's debug port ({@code DEBUG_PORT}), for the scripts that read it: {@code
 * /rlconfig} in the reference's text, and at {@code /} the list of what is served here, one {@code
 * path: help} line each, as there. Every other path is a 404 (the reference answers them with the
 * list; a probe pointed here by mistake would then pass). Health, metrics and the admin API stay on
 * the admin HTTP port; the reference's pprof and {@code /stats} have no Java counterpart here.
 *
 * <p>Threads: its own {@link AdminHttpServer}'s two {@code admin-http-N} threads.
 */
public final class DebugListener implements HttpHandler {
  static final String INDEX = "/rlconfig: the loaded limits, one line per rule\n";

  private DebugListener() {}

  /**
   * The listener, not started yet.
   *
   * @param rlconfig the admin port's {@code /rlconfig} handler, read guard included
   * @throws java.io.UncheckedIOException when the port cannot be bound
   */
  public static AdminHttpServer on(InetSocketAddress address, HttpHandler rlconfig) {
    return new AdminHttpServer(address)
        .handle("/rlconfig", rlconfig)
        .handle("/", new DebugListener());
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    if (exchange.getRequestURI().getPath().equals("/")) {
      AdminHttpServer.send(exchange, 200, AdminHttpServer.TEXT, INDEX);
    } else {
      AdminHttpServer.send(exchange, 404, AdminHttpServer.TEXT, "not found; see /\n");
    }
  }
}
