package dev.sluice.cli;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11.4: attacker-chosen strings must not fill the heap, and the admin port must keep
 * answering. The packaged jar runs with a 64 MB heap ({@code -XX:+ExitOnOutOfMemoryError}, so an
 * out-of-memory anywhere ends the process and cannot hide in a log) and a memory-store key-only
 * rule capped at 500 counters, then takes 10,000 requests with distinct 8,000-byte values (about 80
 * MB of keys if they were all kept: more than the heap), 20,000 distinct unknown domains at the
 * 256-byte limit and 40 domains of 1 MB (refused as too long), from 4 threads, while another thread
 * keeps asking {@code /healthcheck} and {@code /metrics}. Every health and metrics call during and
 * after the flood answers 200, the process is alive with no OutOfMemoryError in its output, and
 * {@code sluice_memory_evictions_total} counted the evictions.
 */
class MemoryPressureIT {
  private static final Path BASEDIR = Path.of("").toAbsolutePath();
  private static final Path JAR = BASEDIR.resolve("target/sluice.jar");
  private static final String JAVA = ProcessHandle.current().info().command().orElse("java");
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final Duration FLOOD_DEADLINE = Duration.ofMinutes(4);
  private static final Pattern READY =
      Pattern.compile("Sluice ready: grpc port (\\d+), http port (\\d+)");
  private static final Pattern EVICTIONS =
      Pattern.compile("(?m)^sluice_memory_evictions_total(?:\\{[^}]*\\})? ([0-9.eE+]+)$");

  // Few large values rather than many small ones: the same 80 MB for a sixth of the calls (the
  // value limit, --max-value-bytes, is 8,192 bytes).
  private static final int MAX_COUNTERS = 500;
  private static final int DISTINCT_VALUES = 10_000;
  private static final int VALUE_BYTES = 8_000;
  private static final int UNKNOWN_DOMAINS = 20_000;
  private static final int HUGE_DOMAINS = 40;
  private static final int THREADS = 4;

  @TempDir Path tmp;

  private final HttpClient http = HttpClient.newHttpClient();
  private Process process;

  @AfterEach
  void kill() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void floodOfDistinctValuesAndHugeDomains_smallHeap_adminAnswersNoOutOfMemory_evicts()
      throws Exception {
    Path rules = Files.createDirectory(tmp.resolve("rules"));
    Files.writeString(
        rules.resolve("flood.yaml"),
        """
        domain: flood
        descriptors:
          - key: user
            rate_limit: {unit: day, requests_per_unit: 10}
        """);
    process = start(rules);
    Matcher ready = awaitReady();
    int grpcPort = Integer.parseInt(ready.group(1));
    int httpPort = Integer.parseInt(ready.group(2));

    Admin admin = new Admin(httpPort);
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort)
            .usePlaintext()
            .maxInboundMessageSize(1 << 20)
            .build();
    ExecutorService threads = Executors.newFixedThreadPool(THREADS + 1);
    try {
      Future<?> probing = threads.submit(admin::probeUntilStopped);
      List<Future<?>> flood = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        flood.add(threads.submit(() -> flood(channel, thread)));
      }
      for (Future<?> each : flood) {
        each.get(FLOOD_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
      }
      admin.stop();
      probing.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      threads.shutdownNow();
      channel.shutdownNow();
    }

    assertThat(process.isAlive()).as("alive after the flood:\n%s", stderr()).isTrue();
    assertThat(admin.calls.get()).as("admin calls during the flood").isPositive();
    assertThat(admin.failures).as("admin calls that did not answer 200").isEmpty();
    assertThat(get(httpPort, "/healthcheck").statusCode()).isEqualTo(200);
    HttpResponse<String> metrics = get(httpPort, "/metrics");
    assertThat(metrics.statusCode()).isEqualTo(200);
    Matcher evictions = EVICTIONS.matcher(metrics.body());
    assertThat(evictions.find()).as("sluice_memory_evictions_total in /metrics").isTrue();
    assertThat(Double.parseDouble(evictions.group(1)))
        .as("counters evicted")
        .isGreaterThanOrEqualTo(DISTINCT_VALUES - MAX_COUNTERS);
    assertThat(stdout() + stderr()).doesNotContain("OutOfMemoryError");
  }

  /** This thread's share of every kind of request; each is answered, OK or refused. */
  private static void flood(ManagedChannel channel, int thread) {
    RateLimitServiceGrpc.RateLimitServiceBlockingStub stub =
        RateLimitServiceGrpc.newBlockingStub(channel);
    String padding = "v".repeat(VALUE_BYTES - 12);
    for (int i = thread; i < DISTINCT_VALUES; i += THREADS) {
      String value = String.format("%012d", i) + padding;
      call(stub, request("flood", descriptor("user", value)));
    }
    String domainPadding = "d".repeat(256 - 12);
    for (int i = thread; i < UNKNOWN_DOMAINS; i += THREADS) {
      call(stub, request(String.format("%012d", i) + domainPadding, descriptor("user", "x")));
    }
    String huge = "h".repeat(1 << 20);
    for (int i = thread; i < HUGE_DOMAINS; i += THREADS) {
      try {
        call(stub, request(i + huge, descriptor("user", "x")));
        throw new AssertionError("a 1 MB domain was accepted");
      } catch (StatusRuntimeException e) {
        assertThat(e.getStatus().getCode())
            .isIn(Status.Code.INVALID_ARGUMENT, Status.Code.RESOURCE_EXHAUSTED);
      }
    }
  }

  private static void call(
      RateLimitServiceGrpc.RateLimitServiceBlockingStub stub, RateLimitRequest request) {
    stub.withDeadlineAfter(DEADLINE.toMillis(), TimeUnit.MILLISECONDS).shouldRateLimit(request);
  }

  /** Asks for health and metrics in a loop until stopped, keeping every answer that is not 200. */
  private final class Admin {
    private final int port;
    private volatile boolean stopped;
    final AtomicLong calls = new AtomicLong();
    final ConcurrentHashMap.KeySetView<String, Boolean> failures = ConcurrentHashMap.newKeySet();

    Admin(int port) {
      this.port = port;
    }

    void probeUntilStopped() {
      while (!stopped) {
        for (String path : List.of("/healthcheck", "/metrics")) {
          try {
            int status = get(port, path).statusCode();
            if (status != 200) {
              failures.add(path + " answered " + status);
            }
          } catch (Exception e) {
            failures.add(path + ": " + e);
          }
          calls.incrementAndGet();
        }
      }
    }

    void stop() {
      stopped = true;
    }
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private Process start(Path rules) throws IOException {
    List<String> command =
        List.of(
            JAVA,
            "-Xmx64m",
            "-XX:+ExitOnOutOfMemoryError",
            "-jar",
            JAR.toString(),
            "serve",
            "--config",
            rules.toString(),
            "--grpc-port",
            "0",
            "--http-port",
            "0",
            "--memory-max-counters",
            Integer.toString(MAX_COUNTERS));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(BASEDIR.toFile())
            .redirectOutput(tmp.resolve("stdout").toFile())
            .redirectError(tmp.resolve("stderr").toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("SLUICE_"));
    return builder.start();
  }

  private Matcher awaitReady() throws IOException {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < end) {
      Matcher ready = READY.matcher(stdout());
      if (ready.find()) {
        return ready;
      }
      if (!process.isAlive()) {
        throw new AssertionError("exited before ready:\n" + stdout() + stderr());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    throw new AssertionError("no ready line within " + DEADLINE + ":\n" + stdout());
  }

  private String stdout() throws IOException {
    return Files.readString(tmp.resolve("stdout"));
  }

  private String stderr() throws IOException {
    return Files.readString(tmp.resolve("stderr"));
  }
}
