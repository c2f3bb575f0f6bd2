package dev.sluice.admin;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.AdminClient;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.RunningSluice;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Rules rewritten dozens of times, valid and invalid, in place and by ConfigMap-style symlink swap,
 * while clients hammer ShouldRateLimit: no request fails, and every answer comes from one rule
 * version. Version k limits descriptor a to 100000+k and b to 200000+k per hour, so a response
 * mixing versions shows two different k.
 */
class ReloadUnderLoadIT {
  private static final int CLIENTS = 8;
  private static final int REWRITES_PER_MODE = 20;

  /** The domain line comes last: a file read half-written is invalid, never a smaller rule set. */
  private static String version(int k) {
    return """
        descriptors:
          - key: a
            rate_limit: {unit: hour, requests_per_unit: %d}
          - key: b
            rate_limit: {unit: hour, requests_per_unit: %d}
        domain: api
        """
        .formatted(100_000 + k, 200_000 + k);
  }

  private static final String INVALID =
      """
      descriptors:
        - key: a
          rate_limit: {unit: fortnight, requests_per_unit: 1}
      domain: api
      """;

  @Test
  void reload_underLoad_noFailedRequestAndNoMixedVersions() throws Exception {
    try (RunningSluice sluice =
        RunningSluice.start(version(0), RunningSluice.memoryStore(), Clock.systemUTC())) {
      AdminClient admin = new AdminClient(sluice.httpPort());
      Load load = new Load(sluice.rls());
      Path dir = sluice.rulesDir();
      int k = 0;
      try {
        Path file = dir.resolve("rules.yaml");
        for (int i = 0; i < REWRITES_PER_MODE; i++) {
          k++;
          if (i % 4 == 3) {
            Files.writeString(file, INVALID);
            awaitRejected(admin);
          }
          Files.writeString(file, version(k));
          awaitVersion(load, k);
        }
        // Switch to the ConfigMap layout without a moment of "no rule file": the symlink replaces
        // the file in one rename.
        Path data = swapIn(dir, version(++k), k);
        Path link = dir.resolve(".rules.yaml.tmp");
        Files.createSymbolicLink(link, Path.of("..data/rules.yaml"));
        Files.move(link, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        awaitVersion(load, k);
        for (int i = 0; i < REWRITES_PER_MODE; i++) {
          k++;
          if (i % 4 == 3) {
            swapIn(dir, INVALID, -k);
            awaitRejected(admin);
          }
          swapIn(dir, version(k), k);
          awaitVersion(load, k);
        }
        assertThat(data).isNotNull();
      } finally {
        load.stop();
      }
      assertThat(load.failures).as("failed requests: %s", load.firstFailure).hasValue(0);
      assertThat(load.mixed).as("responses mixing two rule versions").hasValue(0);
      assertThat(load.requests.get()).isGreaterThan(200);
      assertThat(load.versionsSeen).hasSizeGreaterThanOrEqualTo(2 * REWRITES_PER_MODE);
    }
  }

  /** Writes a new timestamped directory and swaps {@code ..data} to it atomically. */
  private static Path swapIn(Path dir, String yaml, int id) throws IOException {
    Path target = Files.createDirectory(dir.resolve("..v" + (id < 0 ? "bad" + -id : id)));
    Files.writeString(target.resolve("rules.yaml"), yaml);
    Path tmp = dir.resolve("..data_tmp");
    Files.deleteIfExists(tmp);
    Files.createSymbolicLink(tmp, target.getFileName());
    Files.move(
        tmp,
        dir.resolve("..data"),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    return target;
  }

  private static void awaitVersion(Load load, int k) {
    Eventually.await(
        Duration.ofSeconds(10), "rule version " + k, () -> load.versionsSeen.contains(k));
  }

  private static void awaitRejected(AdminClient admin) {
    Eventually.await(
        Duration.ofSeconds(10),
        "the invalid rules to be rejected",
        () -> admin.get("/rules").body().contains("fortnight"));
  }

  /** Client threads sending one two-descriptor request after another until stopped. */
  private static final class Load {
    final AtomicLong requests = new AtomicLong();
    final AtomicInteger failures = new AtomicInteger();
    final AtomicInteger mixed = new AtomicInteger();
    final Set<Integer> versionsSeen = ConcurrentHashMap.newKeySet();
    volatile Throwable firstFailure;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    private final List<Future<?>> futures = new ArrayList<>();

    Load(RateLimitServiceGrpc.RateLimitServiceBlockingStub rls) {
      RateLimitRequest request = request("api", descriptor("a", "x"), descriptor("b", "x"));
      for (int i = 0; i < CLIENTS; i++) {
        futures.add(pool.submit(() -> run(rls, request)));
      }
    }

    private void run(
        RateLimitServiceGrpc.RateLimitServiceBlockingStub rls, RateLimitRequest request) {
      while (running.get()) {
        try {
          RateLimitResponse response = rls.shouldRateLimit(request);
          int a = response.getStatuses(0).getCurrentLimit().getRequestsPerUnit() - 100_000;
          int b = response.getStatuses(1).getCurrentLimit().getRequestsPerUnit() - 200_000;
          if (a != b) {
            mixed.incrementAndGet();
          }
          versionsSeen.add(a);
        } catch (RuntimeException e) {
          failures.incrementAndGet();
          firstFailure = e;
        }
        requests.incrementAndGet();
      }
    }

    void stop() throws Exception {
      running.set(false);
      pool.shutdown();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      for (Future<?> future : futures) {
        future.get();
      }
    }
  }
}
