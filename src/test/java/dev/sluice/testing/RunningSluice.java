package dev.sluice.testing;

import dev.sluice.Sluice;
import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.RulesConfig;
import dev.sluice.config.RulesSettings;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.ServeSettings;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SettingValues;
import dev.sluice.config.StoreConfig;
import dev.sluice.rules.Algorithm;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A real Sluice on free ports with a real gRPC client channel, for end-to-end tests. Rules are
 * written to a temporary directory from text.
 */
public final class RunningSluice implements AutoCloseable {
  private final Path rulesDir;
  private final Sluice sluice;
  private final ManagedChannel channel;
  private final java.util.List<ManagedChannel> extraChannels =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  private RunningSluice(Path rulesDir, ServeConfig config, Clock clock) {
    this.rulesDir = rulesDir;
    this.sluice = Sluice.start(config, clock);
    this.channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", sluice.grpcPort()).usePlaintext().build();
  }

  /** Sluice on the memory store with one rule file holding {@code yaml}. */
  public static RunningSluice withRules(String yaml, Clock clock) {
    return start(yaml, memoryStore(), clock);
  }

  /** Sluice on the memory store serving the rule files at {@code rulesPath} as they are. */
  public static RunningSluice onRulesAt(Path rulesPath, Clock clock) {
    return new RunningSluice(rulesPath, withRulesAt(rulesPath, config(memoryStore())), clock);
  }

  public static RunningSluice start(String yaml, StoreConfig store, Clock clock) {
    return start(yaml, config(store), clock);
  }

  /** Sluice with {@code yaml} as its only rule file and {@code config}'s other settings. */
  public static RunningSluice start(String yaml, ServeConfig config, Clock clock) {
    Path dir = writeRules(yaml);
    return new RunningSluice(dir, withRulesAt(dir, config), clock);
  }

  private static ServeConfig withRulesAt(Path path, ServeConfig config) {
    return config.toBuilder()
        .rules(
            RulesConfig.from(
                SettingValues.builder()
                    .set(RulesSettings.CONFIG, path)
                    .set(ServeSettings.RELOAD_INTERVAL, config.rules().reloadInterval())
                    .set(RulesSettings.DEFAULT_ALGORITHM, config.rules().defaultAlgorithm())
                    .set(RulesSettings.ALLOW_EMPTY_RULES, config.rules().allowEmptyRules())
                    .build()))
        .build();
  }

  /** Defaults for tests: free ports, error failure mode, no headers, fast reload polling. */
  public static ServeConfig config(StoreConfig store) {
    return ServeConfig.builder()
        .rules(
            new RulesConfig(
                Path.of("unused"), Duration.ofMillis(100), Algorithm.FIXED_WINDOW, Set.of()))
        .store(store)
        .server(ServerConfig.anyFreePorts())
        .build();
  }

  /** The token {@link #withAdminToken} configures. */
  public static final String ADMIN_TOKEN = "test-admin-token-0123456789";

  /**
   * {@code config} with admin writes enabled by a token file holding {@link #ADMIN_TOKEN} and the
   * admin gRPC API on a free port of its own.
   */
  public static ServeConfig withAdminToken(ServeConfig config, boolean tokenForReads) {
    try {
      Path file = Files.createTempFile("sluice-admin-token", ".txt");
      Files.writeString(file, ADMIN_TOKEN + "\n");
      return config.toBuilder()
          .server(
              config.server().toBuilder()
                  .access(
                      config.server().access().toBuilder()
                          .adminTokenFile(Optional.of(file))
                          .adminTokenForReads(tokenForReads)
                          .adminGrpcPort(OptionalInt.of(0))
                          .build())
                  .build())
          .build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static StoreConfig memoryStore() {
    return StoreConfig.memory();
  }

  /** Redis with a generous timeout: a loaded CI machine must not fail requests by timing out. */
  public static StoreConfig redisStore(URI url) {
    return StoreConfig.redis(
        RedisConfig.builder(RedisEndpoint.parse(url.toString()))
            .timeout(Duration.ofSeconds(1))
            .connections(4)
            .keyPrefix("")
            .build());
  }

  private static Path writeRules(String yaml) {
    try {
      Path dir = Files.createTempDirectory("sluice-rules");
      Files.writeString(dir.resolve("rules.yaml"), yaml);
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public RateLimitServiceGrpc.RateLimitServiceBlockingStub rls() {
    return RateLimitServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  public ManagedChannel channel() {
    return channel;
  }

  public Sluice sluice() {
    return sluice;
  }

  /** A plaintext channel to the admin gRPC port; fails when that port is off. */
  public ManagedChannel adminChannel() {
    ManagedChannel admin =
        ManagedChannelBuilder.forAddress("127.0.0.1", sluice.adminGrpcPort().orElseThrow())
            .usePlaintext()
            .build();
    extraChannels.add(admin);
    return admin;
  }

  public int httpPort() {
    return sluice.httpPort();
  }

  public Path rulesDir() {
    return rulesDir;
  }

  @Override
  public void close() {
    channel.shutdownNow();
    extraChannels.forEach(ManagedChannel::shutdownNow);
    sluice.close();
  }
}
