package dev.sluice.testing;

import dev.sluice.config.RedisEndpoint;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import redis.clients.jedis.Jedis;

/**
 * Runs a real Redis for one test class, never the machine's shared one:
 *
 * <pre>{@code
 * @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();
 * }</pre>
 *
 * <p>Starts the {@code redis-server} found on PATH on a free port ({@code --save "" --appendonly
 * no}) before the class and stops it after; without a binary it falls back to Docker ({@code
 * redis:7.0} through Testcontainers). Each class gets an empty server; tests within a class share
 * it, so they use unique keys. Not thread-safe: {@link #stop()} and {@link #start()} are for tests
 * that simulate an outage.
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {
  static final String NOTHING_TO_RUN =
      "redis-server not found on PATH and no Docker: install redis-server"
          + " (apt-get install -y redis-server)";

  private static final String SOCKET = "redis.sock";

  private final boolean unixSocket;
  private RedisServer server;

  public RedisServerExtension() {
    this(false);
  }

  private RedisServerExtension(boolean unixSocket) {
    this.unixSocket = unixSocket;
  }

  /** A local {@code redis-server} that also listens on a unix socket ({@link #socket()}). */
  public static RedisServerExtension withUnixSocket() {
    return new RedisServerExtension(true);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    Optional<Path> binary = findOnPath("redis-server", System.getenv("PATH"));
    server =
        unixSocket
            ? new RedisProcess(
                RedisTools.require("redis-server"),
                List.of(),
                List.of("--unixsocket", SOCKET, "--unixsocketperm", "700"))
            : choose(binary, () -> DockerClientFactory.instance().isDockerAvailable());
    try {
      server.start();
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (server != null) {
      server.close();
    }
  }

  public String host() {
    return running().host();
  }

  public int port() {
    return running().port();
  }

  /** This server as the settings tree holds it. */
  public RedisEndpoint endpoint() {
    return RedisEndpoint.Standalone.of(host(), port());
  }

  /** {@code redis://host:port}. */
  public URI uri() {
    return URI.create("redis://" + host() + ":" + port());
  }

  /** A new plain connection for inspecting the server (TTL, SCAN, INFO); the caller closes it. */
  public Jedis client() {
    return new Jedis(host(), port());
  }

  /** The unix socket of a server made by {@link #withUnixSocket()}. */
  public Path socket() {
    if (!(running() instanceof RedisProcess process) || !unixSocket) {
      throw new IllegalStateException("this Redis has no unix socket: use withUnixSocket()");
    }
    return process.dir().resolve(SOCKET);
  }

  /**
   * Creates an ACL user with every command on every key and channel ({@code ACL SETUSER name on
   * >password ~* &* +@all}); returns its name.
   */
  public String addUser(String name, String password) {
    try (Jedis jedis = client()) {
      jedis.aclSetUser(name, "reset", "on", ">" + password, "~*", "&*", "+@all");
    }
    return name;
  }

  /** Stops the server, as in an outage; the port stays reserved for {@link #start()}. */
  public void stop() {
    running().stop();
  }

  /** Starts a stopped server again on the same port, empty; returns once it answers PING. */
  public void start() {
    running().start();
  }

  private RedisServer running() {
    if (server == null) {
      throw new IllegalStateException(
          "RedisServerExtension has not started: register it as a static @RegisterExtension field");
    }
    return server;
  }

  /** The local binary when there is one, else Docker, else a failure saying what to install. */
  static RedisServer choose(Optional<Path> binary, BooleanSupplier dockerAvailable) {
    if (binary.isPresent()) {
      return new RedisProcess(binary.get());
    }
    if (dockerAvailable.getAsBoolean()) {
      return new RedisContainer();
    }
    throw new IllegalStateException(NOTHING_TO_RUN);
  }

  static Optional<Path> findOnPath(String name, String path) {
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
