package dev.sluice.rlqs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Eventually;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.SluiceJarProcess;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaUsageReports;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaUsageReports.BucketQuotaUsage;
import io.envoyproxy.envoy.type.v3.RateLimitStrategy;
import io.envoyproxy.envoy.type.v3.RateLimitStrategy.BlanketRule;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two {@code sluice serve} processes on one real Redis, and simulated Envoys on both, each
 * reporting every 200 ms and enforcing its assignment as the filter does. The Envoys run on virtual
 * time (each report says 200 ms elapsed, whatever the machine's load), so what they admit depends
 * only on what the servers assign.
 */
class RlqsTwoInstancesIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final Duration INTERVAL = Duration.ofMillis(200);
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String RULES =
      """
      domain: edge
      descriptors:
        - key: name
          value: skewed
          rate_limit: {unit: second, requests_per_unit: 100}
        - key: name
          value: rebalance
          rate_limit: {unit: second, requests_per_unit: 60}
        - key: name
          value: closed
          rate_limit: {unit: second, requests_per_unit: 0}
        - key: name
          value: open
          rate_limit: {unlimited: true}
      """;
  private static final String GONE =
      """
        - key: name
          value: gone
          rate_limit: {unit: second, requests_per_unit: 10}
      """;

  private static Path rules;
  private static SluiceJarProcess a;
  private static SluiceJarProcess b;
  private static ManagedChannel toA;
  private static ManagedChannel toB;

  private final List<SimulatedEnvoy> envoys = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService reports = Executors.newSingleThreadScheduledExecutor();

  @BeforeAll
  static void startTwo() throws IOException {
    Path dir = Files.createTempDirectory("sluice-rlqs-it");
    rules = Files.createDirectory(dir.resolve("rules"));
    Files.writeString(rules.resolve("edge.yaml"), RULES + GONE);
    a = start(Files.createDirectory(dir.resolve("a")));
    b = start(Files.createDirectory(dir.resolve("b")));
    toA = NettyChannelBuilder.forAddress("127.0.0.1", a.grpcPort()).usePlaintext().build();
    toB = NettyChannelBuilder.forAddress("127.0.0.1", b.grpcPort()).usePlaintext().build();
  }

  private static SluiceJarProcess start(Path dir) throws IOException {
    return SluiceJarProcess.start(
        dir,
        List.of("-Xmx256m"),
        List.of(
            "--config",
            rules.toString(),
            "--reload-interval",
            "200ms",
            "--store",
            "redis",
            "--redis-url",
            redis.uri().toString(),
            "--rlqs-report-interval",
            INTERVAL.toMillis() + "ms",
            "--rlqs-assignment-ttl",
            "1s"),
        Map.of());
  }

  @AfterAll
  static void stopTwo() throws Exception {
    toA.shutdownNow();
    toB.shutdownNow();
    a.close();
    b.close();
  }

  @AfterEach
  void stopEnvoys() {
    reports.shutdownNow();
    envoys.forEach(SimulatedEnvoy::close);
  }

  private SimulatedEnvoy envoy(ManagedChannel channel, String bucket, double demand) {
    SimulatedEnvoy envoy =
        new SimulatedEnvoy(channel, "edge", Map.of("name", bucket), demand, INTERVAL);
    envoys.add(envoy);
    return envoy;
  }

  private void run() {
    reports.scheduleAtFixedRate(
        () -> envoys.forEach(SimulatedEnvoy::step), 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  private static double total(List<SimulatedEnvoy> envoys, int steps) {
    return envoys.stream().mapToDouble(e -> e.admittedRate(steps)).sum();
  }

  @Test
  void skewedDemandOverTwoInstances_sumWithinTenPercent_maxMinFair() {
    SimulatedEnvoy big = envoy(toA, "skewed", 120);
    SimulatedEnvoy medium = envoy(toB, "skewed", 60);
    SimulatedEnvoy small = envoy(toA, "skewed", 15);
    SimulatedEnvoy tiny = envoy(toB, "skewed", 5);
    List<SimulatedEnvoy> all = List.of(big, medium, small, tiny);
    run();

    // Max-min: 5 and 15 are met, 80 is left for the two that ask more: 40 each.
    Eventually.await(
        DEADLINE,
        "converged shares",
        () ->
            big.steps() > 15
                && Math.abs(total(all, 10) - 100) <= 10
                && Math.abs(big.admittedRate(10) - 40) <= 5
                && Math.abs(medium.admittedRate(10) - 40) <= 5);
    int from = big.steps();
    Eventually.await(DEADLINE, "ten more reports", () -> big.steps() >= from + 10);

    assertThat(total(all, 10)).isBetween(90.0, 110.0);
    assertThat(small.admittedRate(10)).isBetween(13.0, 16.0);
    assertThat(tiny.admittedRate(10)).isBetween(4.0, 6.0);
    assertThat(big.admittedRate(10)).isBetween(35.0, 45.0);
    assertThat(medium.admittedRate(10)).isBetween(35.0, 45.0);
  }

  @Test
  void clientLeaves_theOthersOnBothInstancesTakeItsShare() {
    SimulatedEnvoy first = envoy(toA, "rebalance", 100);
    SimulatedEnvoy second = envoy(toB, "rebalance", 100);
    SimulatedEnvoy leaving = envoy(toA, "rebalance", 100);
    run();
    Eventually.await(
        DEADLINE,
        "20 each",
        () ->
            first.steps() > 10
                && Math.abs(first.admittedRate(5) - 20) <= 3
                && Math.abs(second.admittedRate(5) - 20) <= 3);

    envoys.remove(leaving);
    leaving.close();

    Eventually.await(
        DEADLINE,
        "30 each after one left",
        () ->
            Math.abs(first.admittedRate(5) - 30) <= 3
                && Math.abs(second.admittedRate(5) - 30) <= 3);
    assertThat(first.admittedRate(5) + second.admittedRate(5)).isLessThanOrEqualTo(66);
  }

  @Test
  void blanketRules_zeroDeniesAll_unlimitedAllowsAll() {
    SimulatedEnvoy closed = envoy(toA, "closed", 10);
    SimulatedEnvoy open = envoy(toB, "open", 10);
    SimulatedEnvoy unmatched = envoy(toB, "nobody", 10);
    run();

    Eventually.await(
        DEADLINE,
        "blanket assignments",
        () ->
            closed.strategy().map(RateLimitStrategy::getBlanketRule).orElse(null)
                    == BlanketRule.DENY_ALL
                && open.strategy().map(RateLimitStrategy::getBlanketRule).orElse(null)
                    == BlanketRule.ALLOW_ALL
                && unmatched.strategy().map(RateLimitStrategy::getBlanketRule).orElse(null)
                    == BlanketRule.ALLOW_ALL);
  }

  @Test
  void reloadRemovesARule_itsBucketsAbandonedOnBothInstances() throws IOException {
    SimulatedEnvoy onA = envoy(toA, "gone", 20);
    SimulatedEnvoy onB = envoy(toB, "gone", 20);
    run();
    Eventually.await(
        DEADLINE,
        "token buckets",
        () ->
            onA.strategy().map(RateLimitStrategy::hasTokenBucket).orElse(false)
                && onB.strategy().map(RateLimitStrategy::hasTokenBucket).orElse(false));

    Files.writeString(rules.resolve("edge.yaml"), RULES);
    try {
      Eventually.await(
          DEADLINE, "abandon on both", () -> onA.abandons() >= 1 && onB.abandons() >= 1);
    } finally {
      Files.writeString(rules.resolve("edge.yaml"), RULES + GONE);
    }
  }

  @Test
  void malformedFirstReport_invalidArgument() {
    SimulatedEnvoy bad = envoy(toA, "skewed", 0);
    bad.sendRaw(
        RateLimitQuotaUsageReports.newBuilder()
            .setDomain("edge")
            .addBucketQuotaUsages(
                BucketQuotaUsage.newBuilder()
                    .setBucketId(
                        io.envoyproxy.envoy.service.rate_limit_quota.v3.BucketId.newBuilder()
                            .putBucket("name", "skewed")))
            .build());

    Eventually.await(DEADLINE, "the stream ended", () -> bad.ended().isPresent());
    assertThat(bad.ended().get().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(bad.ended().get().getDescription()).startsWith("time_elapsed must be > 0");
  }
}
