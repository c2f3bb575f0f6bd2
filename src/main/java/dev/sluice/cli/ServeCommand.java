package dev.sluice.cli;

import dev.sluice.Sluice;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.StoreConfig;
import dev.sluice.config.StoreKind;
import dev.sluice.rules.Algorithm;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Runs the service until SIGTERM or SIGINT. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = "Serve Envoy's RLS v3 API on the gRPC port and the admin API on the HTTP port.")
final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      defaultValue = "${env:SLUICE_CONFIG:-config/rules}",
      description = "Rule directory or file (env SLUICE_CONFIG, default ${DEFAULT-VALUE}).")
  Path config;

  @Option(
      names = "--store",
      defaultValue = "${env:SLUICE_STORE:-memory}",
      converter = Converters.StoreKindConverter.class,
      description = "memory or redis (env SLUICE_STORE, default ${DEFAULT-VALUE}).")
  StoreKind store;

  @Option(
      names = "--redis-url",
      defaultValue = "${env:SLUICE_REDIS_URL:-redis://localhost:6379}",
      converter = Converters.RedisUrlConverter.class,
      description = "redis://host:port[/db] (env SLUICE_REDIS_URL, default ${DEFAULT-VALUE}).")
  URI redisUrl;

  @Option(
      names = "--redis-timeout",
      defaultValue = "${env:SLUICE_REDIS_TIMEOUT:-1s}",
      converter = Converters.DurationConverter.class,
      description =
          "Connect and read timeout per Redis call (env SLUICE_REDIS_TIMEOUT, default ${DEFAULT-VALUE}).")
  Duration redisTimeout;

  @Option(
      names = "--redis-pool-size",
      defaultValue = "${env:SLUICE_REDIS_POOL_SIZE:-2}",
      description =
          "Redis connections, each pipelining every request queued for it"
              + " (env SLUICE_REDIS_POOL_SIZE, default ${DEFAULT-VALUE}).")
  int redisPoolSize;

  @Option(
      names = "--redis-key-prefix",
      defaultValue = "${env:SLUICE_REDIS_KEY_PREFIX:-}",
      description = "Prefix of every Redis key (env SLUICE_REDIS_KEY_PREFIX, default none).")
  String keyPrefix;

  @Option(
      names = "--grpc-port",
      defaultValue = "${env:SLUICE_GRPC_PORT:-8081}",
      description =
          "gRPC port, 0 = any free port (env SLUICE_GRPC_PORT, default ${DEFAULT-VALUE}).")
  int grpcPort;

  @Option(
      names = "--http-port",
      defaultValue = "${env:SLUICE_HTTP_PORT:-8080}",
      description =
          "Admin HTTP port, 0 = any free port (env SLUICE_HTTP_PORT, default ${DEFAULT-VALUE}).")
  int httpPort;

  @Option(
      names = "--default-algorithm",
      defaultValue = "${env:SLUICE_DEFAULT_ALGORITHM:-fixed_window}",
      converter = Converters.AlgorithmConverter.class,
      description =
          "Algorithm of rules and overrides that name none: fixed_window or token_bucket (env"
              + " SLUICE_DEFAULT_ALGORITHM, default ${DEFAULT-VALUE}).")
  Algorithm defaultAlgorithm;

  @Override
  public Integer call() throws InterruptedException {
    ServeConfig serveConfig = toConfig();
    Sluice sluice = Sluice.start(serveConfig, Clock.systemUTC());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  sluice.close();
                  stopped.countDown();
                },
                "sluice-shutdown"));
    stopped.await();
    return 0;
  }

  private ServeConfig toConfig() {
    if (!Files.exists(config)) {
      throw new ParameterException(spec.commandLine(), "config path does not exist: " + config);
    }
    try {
      StoreConfig storeConfig =
          new StoreConfig(store, redisUrl, redisTimeout, redisPoolSize, keyPrefix);
      return new ServeConfig(config, storeConfig, grpcPort, httpPort, defaultAlgorithm);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
