package dev.sluice.testing;

/** A Redis the tests own: a local process or a container. Not thread-safe; tests drive it. */
interface RedisServer extends AutoCloseable {
  String host();

  /** The port, the same across {@link #stop()} and {@link #start()}. */
  int port();

  /** Starts the server and returns once it answers PING. */
  void start();

  /** Stops the server; {@link #start()} brings it back empty on the same port. */
  void stop();

  /** Stops the server for good and removes what it left behind. */
  @Override
  void close();
}
