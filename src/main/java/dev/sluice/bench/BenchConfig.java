package dev.sluice.bench;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one load-generator run.
 *
 * @param concurrency closed loop: requests always in flight; open loop: the most in flight at once
 *     (a sender that hits it waits, but latency still counts from the due time)
 * @param channels gRPC channels (HTTP/2 connections) the requests are spread over, round-robin
 * @param ratePerSecond 0 for closed loop, else the open-loop rate in requests per second
 * @param warmup sent like the measured requests, then left out of every count and percentile; in
 *     open loop the rate ramps up from 0 over the warmup
 * @param timeout deadline of each request
 */
public record BenchConfig(
    Target target,
    int concurrency,
    int channels,
    double ratePerSecond,
    Duration warmup,
    Duration duration,
    Duration timeout,
    RequestTemplate requests,
    KeyMode keys) {
  public BenchConfig {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(requests, "requests");
    Objects.requireNonNull(keys, "keys");
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be >= 1: " + concurrency);
    }
    if (channels < 1) {
      throw new IllegalArgumentException("channels must be >= 1: " + channels);
    }
    if (!(ratePerSecond >= 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("rate must be >= 0 per second: " + ratePerSecond);
    }
    if (warmup.isNegative()) {
      throw new IllegalArgumentException("warmup must be >= 0: " + warmup);
    }
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("duration must be > 0: " + duration);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be > 0: " + timeout);
    }
  }

  public boolean openLoop() {
    return ratePerSecond > 0;
  }
}
