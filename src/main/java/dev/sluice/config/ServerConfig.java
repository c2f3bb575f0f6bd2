package dev.sluice.config;

import java.time.Duration;

/**
 * The two ports and how they behave.
 *
 * @param grpcPort 0 picks a free port
 * @param httpPort 0 picks a free port
 * @param adminReadOnly refuse admin writes (reload, counter reset)
 * @param shutdownGrace how long requests in flight may take to finish on shutdown
 */
public record ServerConfig(
    int grpcPort, int httpPort, boolean adminReadOnly, Duration shutdownGrace) {
  public ServerConfig {
    checkPort("grpc", grpcPort);
    checkPort("http", httpPort);
    if (shutdownGrace.isNegative()) {
      throw new IllegalArgumentException("shutdown grace must be >= 0: " + shutdownGrace);
    }
  }

  /** Free ports, admin writes allowed, 5 s grace: for tests and embedding. */
  public static ServerConfig anyFreePorts() {
    return new ServerConfig(0, 0, false, Duration.ofSeconds(5));
  }

  private static void checkPort(String name, int port) {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException(name + " port must be 0..65535: " + port);
    }
  }
}
