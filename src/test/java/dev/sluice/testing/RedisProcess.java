package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@code redis-server} child process on a free loopback port, without persistence, logging to a
 * file in its own temporary directory. A JVM shutdown hook kills it if the test run is interrupted
 * before {@link #close()}. Extra arguments make it a cluster node, a replica, a sentinel or a TLS
 * server; they may name files in {@link #dir()}.
 */
final class RedisProcess implements RedisServer {
  private static final Duration STARTUP = Duration.ofSeconds(10);
  private static final Duration SHUTDOWN = Duration.ofSeconds(10);

  private final Path binary;
  private final Path dir;
  private final int port;
  private final List<String> leading;
  private final List<String> extra;
  private Process process;
  private Thread killOnExit;

  RedisProcess(Path binary) {
    this(binary, List.of(), List.of());
  }

  /**
   * @param leading arguments before the options, e.g. a sentinel's config file
   * @param extra options after the standard ones, e.g. {@code --cluster-enabled yes}
   */
  RedisProcess(Path binary, List<String> leading, List<String> extra) {
    this.binary = binary;
    this.port = freePort();
    this.leading = List.copyOf(leading);
    this.extra = List.copyOf(extra);
    try {
      this.dir = Files.createTempDirectory("sluice-redis-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The process's own directory: its working directory, log and any config it is given. */
  Path dir() {
    return dir;
  }

  /** True while the process runs. */
  boolean alive() {
    return process != null && process.isAlive();
  }

  /** Kills the process at once (SIGKILL), as a crash: no shutdown, no goodbye to replicas. */
  void kill() {
    if (process != null) {
      process.destroyForcibly();
      try {
        process.waitFor(SHUTDOWN.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String host() {
    return "127.0.0.1";
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public void start() {
    if (process != null && process.isAlive()) {
      return;
    }
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(leading);
    command.addAll(
        List.of(
            "--port",
            Integer.toString(port),
            "--bind",
            host(),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            dir.toString()));
    command.addAll(extra);
    try {
      process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("redis.log").toFile())
              .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + binary, e);
    }
    killOnExit = new Thread(process::destroyForcibly, "kill-redis-" + port);
    Runtime.getRuntime().addShutdownHook(killOnExit);
    Ping.await(host(), port, STARTUP, () -> process.isAlive() ? null : "exited\n" + log());
  }

  @Override
  public void stop() {
    if (process == null) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(SHUTDOWN.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor(SHUTDOWN.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    Runtime.getRuntime().removeShutdownHook(killOnExit);
    process = null;
  }

  @Override
  public void close() {
    stop();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String log() {
    try {
      return Files.readString(dir.resolve("redis.log"));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** A port nothing listens on right now (the OS may hand it out again, rarely). */
  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
