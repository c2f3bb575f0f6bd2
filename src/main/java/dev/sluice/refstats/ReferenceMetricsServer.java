package dev.sluice.refstats;

import dev.sluice.admin.AdminGate;
import dev.sluice.admin.AdminHttpServer;
import dev.sluice.admin.AdminRequest;
import dev.sluice.admin.AdminResponse;
import dev.sluice.config.AdminHttpConfig;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reference's Prometheus listener ({@code PROMETHEUS_ADDR}, {@code PROMETHEUS_PATH}): answers
 * GET (and HEAD) of its one path with {@link ReferenceStats#scrape}, 404 elsewhere, 405 for other
 * methods. Reads nothing from the request and writes nothing but the response.
 *
 * <p>It is an {@link AdminHttpServer} of its own, so a client that opens connections and stalls
 * meets the admin port's header deadline and connection bound, and cannot keep the scraper out.
 * Threads: that server's (see there); a scrape runs on its handler threads.
 */
public final class ReferenceMetricsServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReferenceMetricsServer.class);

  private final AdminHttpServer server;

  private ReferenceMetricsServer(AdminHttpServer server) {
    this.server = server;
  }

  /**
   * Listens on {@code address} and starts serving.
   *
   * @param path the one path served, starting with {@code /}
   * @param limits the admin HTTP port's timeouts, connection bound and threads
   * @throws UncheckedIOException naming the address when it cannot be bound
   */
  public static ReferenceMetricsServer start(
      InetSocketAddress address, String path, ReferenceStats stats, AdminHttpConfig limits) {
    AdminHttpServer server =
        new AdminHttpServer(address, limits)
            .handle(
                path,
                AdminGate.OPEN,
                AdminHttpServer.Lane.HANDLERS,
                request -> answer(request, path, stats));
    server.start();
    log.info(
        "reference metrics (the reference's stat names) on port {} at {}", server.port(), path);
    return new ReferenceMetricsServer(server);
  }

  private static AdminResponse answer(AdminRequest request, String path, ReferenceStats stats) {
    if (!request.path().equals(path)) {
      return AdminResponse.text(404, "404 page not found\n");
    }
    if (request.isMethod("HEAD")) {
      return AdminResponse.of(200, ReferenceStats.contentType(), new byte[0]);
    }
    if (!request.isMethod("GET")) {
      return AdminResponse.methodNotAllowed("GET, HEAD");
    }
    return AdminResponse.of(200, ReferenceStats.contentType(), stats.scrape());
  }

  /** The port it listens on (the one picked, when asked for port 0). */
  public int port() {
    return server.port();
  }

  @Override
  public void close() {
    server.close();
  }
}
