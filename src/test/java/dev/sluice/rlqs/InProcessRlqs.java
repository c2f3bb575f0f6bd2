package dev.sluice.rlqs;

import dev.sluice.config.FailureMode;
import dev.sluice.config.RlqsConfig;
import dev.sluice.metrics.RlqsMetrics;
import dev.sluice.testing.FakeClock;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An {@link RlqsService} served over an in-process gRPC channel whose calls and responses run on
 * the caller's thread, and the simulated Envoys talking to it, on a fake clock: each {@link #steps
 * step} is one report interval of every Envoy followed by the server's turn, so a test's exchange
 * is exact and needs no waiting. Confined to the test's thread.
 */
final class InProcessRlqs implements AutoCloseable {
  private final RlqsService service;
  private final FakeClock clock;
  private final Duration interval;
  private final Server server;
  private final ManagedChannel channel;
  private final List<SimulatedEnvoy> envoys = new ArrayList<>();

  private InProcessRlqs(RlqsService service, FakeClock clock, Duration interval)
      throws IOException {
    this.service = service;
    this.clock = clock;
    this.interval = interval;
    String name = InProcessServerBuilder.generateName();
    this.server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(service.definition())
            .build()
            .start();
    this.channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  /** Serves {@code service}; Envoys report every {@code interval} of {@code clock}. */
  static InProcessRlqs serve(RlqsService service, FakeClock clock, Duration interval)
      throws IOException {
    return new InProcessRlqs(service, clock, interval);
  }

  /** One instance's quotas, alone (no shared demand board), failing closed. */
  static Quotas quotasAlone(RlqsConfig config, FakeClock clock, RlqsMetrics metrics) {
    return new Quotas(
        new QuotaBook(),
        DemandBoard.ALONE,
        new Quotas.Settings(FailureMode.ERROR, 1, config.assignmentTtl()),
        clock,
        metrics);
  }

  /**
   * A new Envoy of domain {@code edge} asking for bucket {@code name=bucket} at {@code demand}/s.
   */
  SimulatedEnvoy envoy(String bucket, double demand) {
    SimulatedEnvoy envoy =
        new SimulatedEnvoy(channel, "edge", Map.of("name", bucket), demand, interval);
    envoys.add(envoy);
    return envoy;
  }

  /** Stops stepping {@code envoy}, which the test has closed or whose stream has ended. */
  void forget(SimulatedEnvoy envoy) {
    envoys.remove(envoy);
  }

  /** One report interval of every Envoy, without the server's turn. */
  void reportAll() {
    envoys.forEach(SimulatedEnvoy::step);
    clock.advance(interval);
  }

  /** {@code count} report intervals, each followed by the server's turn. */
  void steps(int count) {
    for (int i = 0; i < count; i++) {
      reportAll();
      service.turn();
    }
  }

  @Override
  public void close() {
    envoys.forEach(SimulatedEnvoy::close);
    channel.shutdownNow();
    server.shutdownNow();
  }
}
