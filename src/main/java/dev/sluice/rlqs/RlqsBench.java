package dev.sluice.rlqs;

import dev.sluice.threads.DaemonThreadFactory;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code sluice bench --rlqs}: several simulated Envoys ({@link SimulatedEnvoy}) on one bucket,
 * spread round-robin over one or more Sluice instances, each with its own demand; per period (a
 * second, or the report interval when longer) it prints what all admitted against the limit and
 * each one's admitted and denied rates, then how long the total took to stay within 10 % of its
 * target (the limit, or what the Envoys offered when that is less), the over-admission after that,
 * and the false denials (requests denied in periods whose total was under 90 % of its target). The
 * Envoys run on virtual time paced by one {@code bench-rlqs} thread.
 */
public final class RlqsBench {
  /**
   * @param targets {@code host:port} of each instance's gRPC port
   * @param demands per Envoy, requests per second
   * @param limit the bucket's rule, per second, for the comparison; 0 = not known
   * @param leaveAt when the first Envoy stops reporting, if it does
   * @param arriveAt when the last Envoy starts, if it starts late
   */
  public record Settings(
      List<String> targets,
      String domain,
      Map<String, String> bucket,
      List<Double> demands,
      Duration interval,
      Duration duration,
      double limit,
      Optional<Duration> leaveAt,
      Optional<Duration> arriveAt) {}

  private RlqsBench() {}

  /** Runs the simulation for its duration and prints to {@code out}. */
  public static void run(Settings settings, PrintWriter out) throws InterruptedException {
    List<ManagedChannel> channels = settings.targets().stream().map(RlqsBench::channel).toList();
    Fleet fleet = new Fleet(settings, channels);
    ScheduledExecutorService pacer =
        Executors.newSingleThreadScheduledExecutor(new DaemonThreadFactory("bench-rlqs"));
    try {
      pacer.scheduleAtFixedRate(
          fleet::tick, 0, settings.interval().toMillis(), TimeUnit.MILLISECONDS);
      fleet.done.await();
    } finally {
      pacer.shutdownNow();
      pacer.awaitTermination(5, TimeUnit.SECONDS);
    }
    report(settings, fleet.envoys, fleet.startedAt, out);
    for (SimulatedEnvoy envoy : fleet.envoys) {
      if (envoy != null) {
        envoy.close();
      }
    }
    channels.forEach(ManagedChannel::shutdownNow);
  }

  private static ManagedChannel channel(String target) {
    int colon = target.lastIndexOf(':');
    return NettyChannelBuilder.forAddress(
            target.substring(0, colon), Integer.parseInt(target.substring(colon + 1)))
        .usePlaintext()
        .build();
  }

  /**
   * The Envoys and their virtual time, one step per report interval; touched only by the pacer
   * thread until {@link #done} opens.
   */
  private static final class Fleet {
    final SimulatedEnvoy[] envoys;
    final long[] startedAt;
    final CountDownLatch done = new CountDownLatch(1);
    private final Settings settings;
    private final List<ManagedChannel> channels;
    private final long steps;
    private final long leaveStep;
    private final long arriveStep;
    private long step;

    Fleet(Settings settings, List<ManagedChannel> channels) {
      this.settings = settings;
      this.channels = channels;
      long interval = settings.interval().toMillis();
      this.steps = settings.duration().toMillis() / interval;
      this.leaveStep = settings.leaveAt().map(d -> d.toMillis() / interval).orElse(-1L);
      this.arriveStep = settings.arriveAt().map(d -> d.toMillis() / interval).orElse(0L);
      this.envoys = new SimulatedEnvoy[settings.demands().size()];
      this.startedAt = new long[envoys.length];
    }

    /** One report interval: the late Envoy arrives, the first one leaves, the others step. */
    void tick() {
      long now = step++;
      for (int i = 0; i < envoys.length; i++) {
        boolean late = i == envoys.length - 1 && now < arriveStep;
        if (envoys[i] == null && !late) {
          envoys[i] =
              new SimulatedEnvoy(
                  channels.get(i % channels.size()),
                  settings.domain(),
                  settings.bucket(),
                  settings.demands().get(i),
                  settings.interval());
          startedAt[i] = now;
        }
        boolean gone = i == 0 && leaveStep >= 0 && now >= leaveStep;
        if (gone && now == leaveStep) {
          envoys[0].close();
        }
        if (envoys[i] != null && !gone) {
          envoys[i].step();
        }
      }
      if (step >= steps) {
        done.countDown();
      }
    }
  }

  private static void report(
      Settings settings, SimulatedEnvoy[] envoys, long[] startedAt, PrintWriter out) {
    long stepsPerPeriod = Math.max(1, 1000 / settings.interval().toMillis());
    double periodSeconds = stepsPerPeriod * settings.interval().toMillis() / 1000.0;
    long steps = settings.duration().toMillis() / settings.interval().toMillis();
    int periods = (int) (steps / stepsPerPeriod);
    double[] totals = new double[periods];
    double[] denied = new double[periods];
    double[] offered = new double[periods];
    for (int p = 0; p < periods; p++) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < envoys.length; i++) {
        double[] rates = rates(envoys[i], startedAt[i], p * stepsPerPeriod, stepsPerPeriod);
        totals[p] += rates[0] / periodSeconds;
        denied[p] += rates[1];
        offered[p] += (rates[0] + rates[1]) / periodSeconds;
        line.append(
            String.format(
                Locale.ROOT,
                " | e%d %.1f/s denied %.1f/s",
                i + 1,
                rates[0] / periodSeconds,
                rates[1] / periodSeconds));
      }
      out.printf(
          Locale.ROOT,
          "t=%5.1fs admitted %.1f/s%s%s%n",
          (p + 1) * periodSeconds,
          totals[p],
          settings.limit() > 0
              ? String.format(
                  Locale.ROOT,
                  " (%+.1f%% of %.0f)",
                  100 * (totals[p] / settings.limit() - 1),
                  settings.limit())
              : "",
          line);
    }
    double[] targets = new double[periods];
    for (int p = 0; p < periods; p++) {
      targets[p] = Math.min(settings.limit(), offered[p]);
    }
    summary(settings, new double[][] {totals, targets, denied}, periodSeconds, out);
    out.flush();
  }

  /** Admitted and denied over {@code count} steps from step {@code from} of the run. */
  private static double[] rates(SimulatedEnvoy envoy, long startedAt, long from, long count) {
    double[] sums = new double[2];
    if (envoy == null) {
      return sums;
    }
    List<Long> admitted = envoy.admitted();
    List<Long> denied = envoy.denied();
    for (long s = Math.max(from, startedAt); s < from + count; s++) {
      int index = (int) (s - startedAt);
      if (index >= 0 && index < admitted.size()) {
        sums[0] += admitted.get(index);
        sums[1] += denied.get(index);
      }
    }
    return sums;
  }

  /** {@code series}: admitted total, target and denied, per period. */
  private static void summary(
      Settings settings, double[][] series, double periodSeconds, PrintWriter out) {
    double[] totals = series[0];
    double[] targets = series[1];
    double[] denied = series[2];
    if (settings.limit() <= 0 || totals.length == 0) {
      return;
    }
    int converged = totals.length;
    while (converged > 0
        && Math.abs(totals[converged - 1] - targets[converged - 1])
            <= 0.10 * targets[converged - 1]) {
      converged--;
    }
    double admitted = 0;
    double target = 0;
    for (int p = converged; p < totals.length; p++) {
      admitted += totals[p];
      target += targets[p];
    }
    double falseDenials = 0;
    for (int p = 0; p < totals.length; p++) {
      if (totals[p] < 0.9 * targets[p]) {
        falseDenials += denied[p];
      }
    }
    int after = totals.length - converged;
    out.printf(
        Locale.ROOT,
        "converged (within 10%% of the target to the end) after %.1fs; after that admitted %s;"
            + " false denials %.0f%n",
        converged * periodSeconds,
        after == 0
            ? "n/a"
            : String.format(
                Locale.ROOT,
                "%.1f/s against %.1f/s (%+.1f%%)",
                admitted / after,
                target / after,
                100 * (admitted / target - 1)),
        falseDenials);
  }
}
