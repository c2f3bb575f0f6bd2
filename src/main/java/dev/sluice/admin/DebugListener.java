package dev.sluice.admin;

import dev.sluice.config.AdminHttpConfig;
import java.net.InetSocketAddress;

/**
 * envoyproxy/ratelimit's debug port ({@code DEBUG_PORT}), for the scripts that read it: {@code
 * /rlconfig} in the reference's text, and at {@code /} the list of what is served here, one {@code
 * path: help} line each, as there. Every other path is a 404 (the reference answers them with the
 * list; a probe pointed here by mistake would then pass). Health, metrics and the admin API stay on
 * the admin HTTP port; the reference's pprof and {@code /stats} have no Java counterpart here.
 *
 * <p>It is an {@link AdminHttpServer} of its own, so it has the admin port's limits against slow
 * and flooding clients. Threads: that server's (see there).
 */
public final class DebugListener implements AdminRoute {
  static final String INDEX = "/rlconfig: the loaded limits, one line per rule\n";

  private DebugListener() {}

  /**
   * The listener, not started yet.
   *
   * @param reads the admin port's read gate (the read token, when one is required)
   * @param rlconfig the admin port's {@code /rlconfig} route
   * @throws java.io.UncheckedIOException when the port cannot be bound
   */
  public static AdminHttpServer on(
      InetSocketAddress address, AdminHttpConfig limits, AdminGate reads, AdminRoute rlconfig) {
    return new AdminHttpServer(address, limits)
        .handle("/rlconfig", reads, AdminHttpServer.Lane.HANDLERS, rlconfig)
        .handle("/", reads, AdminHttpServer.Lane.IO, new DebugListener());
  }

  @Override
  public AdminResponse answer(AdminRequest request) {
    return AdminResponse.text(200, INDEX);
  }
}
