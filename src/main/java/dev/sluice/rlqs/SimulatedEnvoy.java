package dev.sluice.rlqs;

import com.google.protobuf.util.Durations;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.BucketId;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaResponse;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaResponse.BucketAction;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaServiceGrpc;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaUsageReports;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaUsageReports.BucketQuotaUsage;
import io.envoyproxy.envoy.type.v3.RateLimitStrategy;
import io.envoyproxy.envoy.type.v3.TokenBucket;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One Envoy's rate_limit_quota filter for one bucket, on virtual time: each {@link #step} is one
 * report interval in which {@code demand × interval} requests arrive, spread evenly, and are let
 * through as the bucket's assignment says (allow all while it has none, Envoy's default {@code
 * no_assignment_behavior}), then reported. A token bucket refills continuously up to {@code
 * max_tokens}, and a new, different strategy starts a full bucket, as Envoy's does. Responses may
 * come on any thread; the state they touch is guarded by this object's monitor. Used by {@code
 * sluice bench --rlqs} and by the tests.
 */
public final class SimulatedEnvoy implements AutoCloseable {
  private final String domain;
  private final Map<String, String> bucket;
  private final Duration interval;
  private final StreamObserver<RateLimitQuotaUsageReports> reports;
  private final List<Long> admittedPerStep = new ArrayList<>();
  private final List<Long> deniedPerStep = new ArrayList<>();
  private volatile double demandPerSecond;
  private RateLimitStrategy strategy;
  private double tokens;
  private double arrivals;
  private long abandons;
  private Status ended;
  private boolean first = true;

  /**
   * Opens the stream; nothing is sent before the first {@link #step} with a request.
   *
   * @param interval the report interval, also each step's length of virtual time
   */
  public SimulatedEnvoy(
      Channel channel,
      String domain,
      Map<String, String> bucket,
      double demandPerSecond,
      Duration interval) {
    this.domain = domain;
    this.bucket = bucket;
    this.demandPerSecond = demandPerSecond;
    this.interval = interval;
    this.reports =
        RateLimitQuotaServiceGrpc.newStub(channel).streamRateLimitQuotas(new Responses());
  }

  public void demand(double perSecond) {
    demandPerSecond = perSecond;
  }

  /** One report interval: requests arrive, are enforced, and are reported. */
  public synchronized void step() {
    // Requests arrive spread over the interval, in slices of at most 10 ms, as a bucket that
    // refills continuously sees them: all at once would cap an interval at max_tokens.
    long slices = Math.max(1, interval.toMillis() / 10);
    double seconds = interval.toNanos() / 1e9 / slices;
    long offered = 0;
    long admitted = 0;
    for (long slice = 0; slice < slices; slice++) {
      arrivals += demandPerSecond * seconds;
      long arrived = (long) Math.floor(arrivals);
      arrivals -= arrived;
      offered += arrived;
      admitted += admit(arrived, seconds);
    }
    admittedPerStep.add(admitted);
    deniedPerStep.add(offered - admitted);
    if (ended != null || (offered == 0 && first)) {
      return;
    }
    RateLimitQuotaUsageReports.Builder report =
        RateLimitQuotaUsageReports.newBuilder()
            .addBucketQuotaUsages(
                BucketQuotaUsage.newBuilder()
                    .setBucketId(BucketId.newBuilder().putAllBucket(bucket))
                    .setTimeElapsed(Durations.fromNanos(interval.toNanos()))
                    .setNumRequestsAllowed(admitted)
                    .setNumRequestsDenied(offered - admitted));
    if (first) {
      report.setDomain(domain);
      first = false;
    }
    reports.onNext(report.build());
  }

  private long admit(long offered, double seconds) {
    if (strategy == null || strategy.hasBlanketRule()) {
      boolean deny =
          strategy != null && strategy.getBlanketRule() == RateLimitStrategy.BlanketRule.DENY_ALL;
      return deny ? 0 : offered;
    }
    TokenBucket bucket = strategy.getTokenBucket();
    double rate =
        Integer.toUnsignedLong(bucket.getTokensPerFill().getValue())
            / (Durations.toNanos(bucket.getFillInterval()) / 1e9);
    tokens = Math.min(Integer.toUnsignedLong(bucket.getMaxTokens()), tokens + rate * seconds);
    long admitted = Math.min(offered, (long) Math.floor(tokens));
    tokens -= admitted;
    return admitted;
  }

  private synchronized void apply(BucketAction action) {
    if (!action.getBucketId().getBucketMap().equals(bucket)) {
      return;
    }
    if (action.hasAbandonAction()) {
      abandons++;
      strategy = null;
      first = true; // the next request subscribes again, as Envoy does
      return;
    }
    RateLimitStrategy next = action.getQuotaAssignmentAction().getRateLimitStrategy();
    if (!next.equals(strategy) && next.hasTokenBucket()) {
      tokens = Integer.toUnsignedLong(next.getTokenBucket().getMaxTokens());
    }
    strategy = next;
  }

  /** Requests admitted per second over the last {@code steps} steps. */
  synchronized double admittedRate(int steps) {
    int from = Math.max(0, admittedPerStep.size() - steps);
    long sum = 0;
    for (long each : admittedPerStep.subList(from, admittedPerStep.size())) {
      sum += each;
    }
    int counted = admittedPerStep.size() - from;
    return counted == 0 ? 0 : sum / (counted * interval.toNanos() / 1e9);
  }

  /** Requests admitted in each step so far, in order. */
  public synchronized List<Long> admitted() {
    return List.copyOf(admittedPerStep);
  }

  /** Requests denied in each step so far, in order. */
  public synchronized List<Long> denied() {
    return List.copyOf(deniedPerStep);
  }

  synchronized int steps() {
    return admittedPerStep.size();
  }

  synchronized Optional<RateLimitStrategy> strategy() {
    return Optional.ofNullable(strategy);
  }

  synchronized long abandons() {
    return abandons;
  }

  /** How the server ended the stream, or empty while it is open. */
  synchronized Optional<Status> ended() {
    return Optional.ofNullable(ended);
  }

  /** Sends a raw message on the stream, for malformed reports. */
  void sendRaw(RateLimitQuotaUsageReports message) {
    reports.onNext(message);
  }

  @Override
  public synchronized void close() {
    if (ended == null) {
      reports.onCompleted();
      ended = Status.CANCELLED;
    }
  }

  private final class Responses implements StreamObserver<RateLimitQuotaResponse> {
    @Override
    public void onNext(RateLimitQuotaResponse response) {
      response.getBucketActionList().forEach(SimulatedEnvoy.this::apply);
    }

    @Override
    public void onError(Throwable t) {
      synchronized (SimulatedEnvoy.this) {
        ended = Status.fromThrowable(t);
      }
    }

    @Override
    public void onCompleted() {
      synchronized (SimulatedEnvoy.this) {
        ended = Status.OK;
      }
    }
  }
}
