package dev.sluice.testing;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.time.Duration;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * The fallback when no {@code redis-server} is on PATH: {@code redis:7.0} in Docker through
 * Testcontainers. The host port is fixed when the container is created, so {@link #stop()} and
 * {@link #start()} keep it, as with a local process.
 */
final class RedisContainer implements RedisServer {
  private static final String IMAGE = "redis:7.0";
  private static final int REDIS_PORT = 6379;
  private static final Duration STARTUP = Duration.ofSeconds(60);

  private final int port = RedisProcess.freePort();
  private final GenericContainer<?> container;
  private boolean created;
  private boolean running;

  RedisContainer() {
    container =
        new GenericContainer<>(IMAGE)
            .withCommand("redis-server", "--save", "", "--appendonly", "no")
            .withCreateContainerCmdModifier(
                cmd ->
                    cmd.getHostConfig()
                        .withPortBindings(
                            new PortBinding(
                                Ports.Binding.bindPort(port), ExposedPort.tcp(REDIS_PORT))))
            .waitingFor(Wait.forLogMessage(".*Ready to accept connections.*\\n", 1))
            .withStartupTimeout(STARTUP);
  }

  @Override
  public String host() {
    return container.getHost();
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public void start() {
    if (running) {
      return;
    }
    if (!created) {
      container.start();
      created = true;
    } else {
      container.getDockerClient().startContainerCmd(container.getContainerId()).exec();
    }
    running = true;
    Ping.await(host(), port, STARTUP, () -> null);
  }

  @Override
  public void stop() {
    if (running) {
      container.getDockerClient().stopContainerCmd(container.getContainerId()).exec();
      running = false;
    }
  }

  @Override
  public void close() {
    container.stop();
  }
}
