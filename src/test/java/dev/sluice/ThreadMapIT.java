package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.CaptureConfig;
import dev.sluice.config.RedisConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.StoreConfig;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.RlsRequests;
import dev.sluice.testing.RunningSluice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The thread map in {@link Sluice}'s Javadoc is the threads there are: every thread a running
 * {@code serve} creates (with Redis, a per-second Redis and capture, after a request) and every
 * thread name the main code gives a {@code DaemonThreadFactory} is named in it.
 */
class ThreadMapIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();
  @RegisterExtension static final RedisServerExtension perSecond = new RedisServerExtension();

  /** The test's own gRPC client channel: grpc-java's client transport threads, not Sluice's. */
  private static final Set<String> TEST_CLIENT_THREADS =
      Set.of(
          "grpc-nio-worker-ELG",
          "grpc-default-worker-ELG",
          "grpc-default-executor",
          "grpc-shared-destroyer");

  /**
   * The JVM's and the test runner's own threads, which a previous test in this JVM may start at any
   * time (a process ending, an HTTP client idling out): none is Sluice's.
   */
  private static final Set<String> JVM_THREADS =
      Set.of(
          "process reaper",
          "Common-Cleaner",
          "Attach Listener",
          "Keep-Alive-Timer",
          "Keep-Alive-SocketCleaner",
          "surefire-forkedjvm-ping-30s",
          "surefire-forkedjvm-stream-flusher");

  private static final Pattern NAMED_IN_MAP =
      Pattern.compile("\\{@code\\s+(?:\\*\\s+)?([A-Za-z][A-Za-z-]*?)(-N|-0)?}");
  private static final Pattern FACTORY_NAME =
      Pattern.compile("new DaemonThreadFactory\\(\\s*\"([^\"]+)\"");

  @TempDir Path dir;

  @Test
  void serve_everyThreadItCreates_isInTheThreadMap() throws Exception {
    Set<String> before = threadPrefixes();
    StoreConfig store =
        RunningSluice.redisStore(redis.uri()).toBuilder()
            .perSecondRedis(
                Optional.of(
                    RedisConfig.builder(perSecond.endpoint())
                        .timeout(Duration.ofSeconds(1))
                        .connections(2)
                        .keyPrefix("")
                        .build()))
            .build();
    ServeConfig config =
        RunningSluice.config(store).toBuilder()
            .capture(
                new CaptureConfig(Optional.of(dir.resolve("capture.jsonl")), 1.0, true, 1 << 20, 2))
            .build();
    String rules =
        """
        domain: api
        descriptors:
          - key: user
            rate_limit: {unit: hour, requests_per_unit: 3}
          - key: ip
            rate_limit: {unit: second, requests_per_unit: 3}
        """;
    Set<String> created;
    try (RunningSluice sluice =
        RunningSluice.start(rules, config, FakeClock.atEpochSecond(1_700_000_000L))) {
      sluice
          .rls()
          .shouldRateLimit(RlsRequests.request("api", RlsRequests.descriptor("user", "alice")));
      sluice
          .rls()
          .shouldRateLimit(RlsRequests.request("api", RlsRequests.descriptor("ip", "10.0.0.1")));
      created = threadPrefixes();
    }
    created.removeAll(before);
    created.removeAll(TEST_CLIENT_THREADS);
    created.removeAll(JVM_THREADS);
    created.removeIf(name -> name.startsWith("HttpClient-"));

    Set<String> map = threadMap();
    assertThat(created)
        .contains("sluice-redis-lane", "sluice-redis-per-second-lane", "sluice-capture");
    assertThat(map).containsAll(created);
  }

  @Test
  void mainCode_everyDaemonThreadFactoryName_isInTheThreadMap() throws IOException {
    Set<String> names = new TreeSet<>();
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        Matcher m = FACTORY_NAME.matcher(Files.readString(file));
        while (m.find()) {
          names.add(m.group(1));
        }
      }
    }
    assertThat(names).contains("sluice-redis-lane", "sluice-explain-redis");
    assertThat(threadMap()).containsAll(names);
  }

  /** The names in {@code Sluice}'s class Javadoc, each without its {@code -N} suffix. */
  private static Set<String> threadMap() throws IOException {
    String source = Files.readString(Path.of("src/main/java/dev/sluice/Sluice.java"));
    String javadoc = source.substring(0, source.indexOf("public final class Sluice"));
    Set<String> names = new TreeSet<>();
    Matcher m = NAMED_IN_MAP.matcher(javadoc);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /** Live threads' names with any trailing {@code -digits} groups removed. */
  private static Set<String> threadPrefixes() {
    return Thread.getAllStackTraces().keySet().stream()
        // Jetty renames its acceptor while it accepts: admin-http-io-1-acceptor-0@1a2b-...
        .map(t -> t.getName().replaceAll("-acceptor-.*$", ""))
        .map(name -> name.replaceAll("(-\\d+)+$", ""))
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
