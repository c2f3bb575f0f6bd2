package dev.sluice.config;

import dev.sluice.rules.Algorithm;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Everything {@code sluice serve} needs.
 *
 * @param rulesPath a directory of rule files, or one file
 * @param grpcPort 0 picks a free port
 * @param httpPort 0 picks a free port
 * @param defaultAlgorithm for rules and overrides that do not name one
 */
public record ServeConfig(
    Path rulesPath, StoreConfig store, int grpcPort, int httpPort, Algorithm defaultAlgorithm) {
  public ServeConfig {
    Objects.requireNonNull(rulesPath, "rulesPath");
    Objects.requireNonNull(store, "store");
    checkPort("grpc", grpcPort);
    checkPort("http", httpPort);
    Objects.requireNonNull(defaultAlgorithm, "defaultAlgorithm");
  }

  private static void checkPort(String name, int port) {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException(name + " port must be 0..65535: " + port);
    }
  }
}
