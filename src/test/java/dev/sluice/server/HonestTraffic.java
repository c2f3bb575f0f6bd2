package dev.sluice.server;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;

import dev.sluice.testing.SluiceJarProcess;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a well-behaved Envoy and a Kubernetes probe do while an attack runs: one gRPC client asks
 * {@code ShouldRateLimit} for a fresh value twice (the first answer must be OK, the second
 * OVER_LIMIT under a one-per-day rule), and one thread asks {@code /healthcheck}; each call has a
 * deadline, and every wrong answer, error or timeout is kept. Both loop until {@link #stop}.
 */
final class HonestTraffic implements AutoCloseable {
  /** The rule file the honest client's answers assume. */
  static final String RULES =
      """
      domain: honest
      descriptors:
        - key: user
          rate_limit: {unit: day, requests_per_unit: 1}
      """;

  private static final Duration CALL_DEADLINE = Duration.ofSeconds(10);
  private static final int KEPT_FAILURES = 20;

  /**
   * The packaged jar serving {@link #RULES} (written to {@code tmp/rules}), for the attack tests
   * whose honest client runs beside the attack.
   *
   * @param args flags after {@code --config}
   */
  static SluiceJarProcess startSluice(
      Path tmp, List<String> jvmArgs, List<String> args, Map<String, String> env)
      throws IOException {
    Path rules = Files.createDirectory(tmp.resolve("rules"));
    Files.writeString(rules.resolve("honest.yaml"), RULES);
    List<String> all = new ArrayList<>(List.of("--config", rules.toString()));
    all.addAll(args);
    return SluiceJarProcess.start(tmp, jvmArgs, all, env);
  }

  private final SluiceJarProcess sluice;
  private final ManagedChannel channel;
  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private final Queue<String> failures = new ConcurrentLinkedQueue<>();
  private final AtomicLong failureCount = new AtomicLong();
  private final AtomicLong decisions = new AtomicLong();
  private final AtomicLong healthChecks = new AtomicLong();
  private volatile boolean stopped;
  private Future<?> rls;
  private Future<?> health;

  HonestTraffic(SluiceJarProcess sluice) {
    this.sluice = sluice;
    this.channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", sluice.grpcPort()).usePlaintext().build();
  }

  HonestTraffic start() {
    rls = threads.submit(this::decideUntilStopped);
    health = threads.submit(this::probeUntilStopped);
    return this;
  }

  /** Pairs of decisions answered correctly so far. */
  long decisions() {
    return decisions.get();
  }

  long healthChecks() {
    return healthChecks.get();
  }

  /** Stops both loops (each finishes its call in flight) and returns every failure seen. */
  Queue<String> stop() throws Exception {
    stopped = true;
    rls.get(CALL_DEADLINE.toSeconds() * 3, TimeUnit.SECONDS);
    health.get(CALL_DEADLINE.toSeconds() * 3, TimeUnit.SECONDS);
    return failures;
  }

  private void decideUntilStopped() {
    RateLimitServiceGrpc.RateLimitServiceBlockingStub stub =
        RateLimitServiceGrpc.newBlockingStub(channel);
    for (long i = 0; !stopped; i++) {
      var request = request("honest", descriptor("user", "client-" + i));
      try {
        RateLimitResponse.Code first = decide(stub, request);
        RateLimitResponse.Code second = decide(stub, request);
        if (first != RateLimitResponse.Code.OK || second != RateLimitResponse.Code.OVER_LIMIT) {
          fail("client-" + i + " answered " + first + " then " + second);
        } else {
          decisions.incrementAndGet();
        }
      } catch (RuntimeException e) {
        fail("client-" + i + ": " + e);
      }
    }
  }

  private static RateLimitResponse.Code decide(
      RateLimitServiceGrpc.RateLimitServiceBlockingStub stub,
      io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest request) {
    return stub.withDeadlineAfter(CALL_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
        .shouldRateLimit(request)
        .getOverallCode();
  }

  /** Keeps the first failures: a dead process would otherwise fill the test's heap with them. */
  private void fail(String failure) {
    if (failureCount.incrementAndGet() <= KEPT_FAILURES) {
      failures.add(failure);
    }
  }

  private void probeUntilStopped() {
    while (!stopped) {
      try {
        int status = sluice.get("/healthcheck").statusCode();
        if (status != 200) {
          fail("/healthcheck answered " + status);
        }
      } catch (Exception e) {
        fail("/healthcheck: " + e);
      }
      healthChecks.incrementAndGet();
    }
  }

  @Override
  public void close() {
    stopped = true;
    threads.shutdownNow();
    channel.shutdownNow();
  }
}
